// @engram/ai-sdk: Engram memory for the Vercel AI SDK (npm `ai` 7). `engramMemory` is a `wrapLanguageModel`
// middleware (recall before a call, remember after it); `engramTools` are remember / recall / forget / correct tools.
export {
  type EngramMemoryEvent,
  type EngramMemoryMiddleware,
  type EngramMemoryOptions,
  type SkipReason,
  type TurnIds,
  engramMemory,
  latestUserText,
} from "./middleware.js";
export {
  type CorrectToolResult,
  type EngramTools,
  type EngramToolsOptions,
  type ForgetToolResult,
  type RecallToolResult,
  type RememberToolResult,
  type ToolFailure,
  correctInput,
  engramTools,
  forgetInput,
  recallInput,
  rememberInput,
} from "./tools.js";
export { type MemoryLine, MEMORY_HEADER, estimateTokens, memoryContext, memoryLines } from "./context.js";
export { type EngramConnection, type EngramScope, type FailureKind, redact } from "./common.js";
