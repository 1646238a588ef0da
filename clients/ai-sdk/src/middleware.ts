// The memory middleware for `wrapLanguageModel`: before a call, recall for the latest user message and put what
// memory holds (dated, with what each fact replaced) into the system context within a token budget; after it,
// remember the exchange under the app's turn ids. Engram down, slow or refusing never fails the call: the step is
// skipped and `onEvent` says why.
import type { Engram } from "@engram/client";
import type { LanguageModelMiddleware } from "ai";
import {
  type EngramConnection,
  type EngramScope,
  type FailureKind,
  MAX_QUERY_CHARS,
  MAX_TEXT_CHARS,
  clientOf,
  failureOf,
  nameProblem,
  redact,
  scopeProblem,
  withDeadline,
} from "./common.js";
import { type MemoryLine, type RecallAnswer, memoryContext, memoryLines } from "./context.js";

type TransformArgs = Parameters<NonNullable<LanguageModelMiddleware["transformParams"]>>[0];
type CallOptions = TransformArgs["params"];
type Prompt = CallOptions["prompt"];
type GenerateResult = Awaited<ReturnType<Parameters<NonNullable<LanguageModelMiddleware["wrapGenerate"]>>[0]["doGenerate"]>>;
type StreamResult = Awaited<ReturnType<Parameters<NonNullable<LanguageModelMiddleware["wrapStream"]>>[0]["doStream"]>>;
type StreamPart = StreamResult["stream"] extends ReadableStream<infer P> ? P : never;

/** The app's ids for one turn: the user's message and the assistant's answer. A string `t` stands for
 * `{ user: "t:user", assistant: "t:assistant" }`. With ids, remembering the same turn again writes nothing new. */
export type TurnIds = string | { user: string; assistant: string };

/** Why a memory step was skipped: a message with no text, a scope name the server would refuse, a text over the
 * server's limit, or Engram's failure (unavailable, timeout, unauthorized, refused, error). */
export type SkipReason = "no-text" | "invalid-scope" | "too-long" | FailureKind;

export type EngramMemoryEvent =
  | {
      type: "recalled";
      /** What was asked (the user's latest message; its last 2,000 characters when longer). */
      query: string;
      truncated: boolean;
      /** The memories put into the system context (each with the versions it replaced), best first. */
      lines: MemoryLine[];
      /** Estimated tokens of the injected block (within `tokenBudget`). */
      tokens: number;
      ms: number;
    }
  | {
      /** Recall answered, but with nothing relevant (its `reason`, when it gave one): nothing was injected. */
      type: "nothing-relevant";
      query: string;
      reason: string | null;
      ms: number;
    }
  | { type: "remembered"; episodeIds: string[]; jobIds: string[] }
  | { type: "skipped"; step: "recall" | "remember"; reason: SkipReason; message: string };

export interface EngramMemoryOptions extends EngramScope {
  engram: EngramConnection;
  /** The app's ids for this turn (see TurnIds); without them the server names what it writes, and a retried
   * request remembers the exchange twice. */
  turn?: TurnIds;
  /** Most (estimated) tokens of memory put into the system context; default 1,000. */
  tokenBudget?: number;
  /** How long a recall may take before the call goes on without memory, and a remember before it is given up;
   * default 2,000 ms. */
  timeoutMs?: number;
  /** Recall only what was remembered in this session and/or by this agent (default: the user's whole memory). */
  recallFilter?: { session?: string; agent?: string };
  /** Passed to recall: most items, the relevance floor (default: the server's), a recipe. */
  recall?: { limit?: number; minRelevance?: number; recipe?: string };
  /** Remember the exchange after the call (default true). */
  remember?: boolean;
  /** The assistant's name in memory (default "assistant"). */
  assistantSpeaker?: string;
  /** Every memory step's outcome: what was recalled and injected, what was remembered, what was skipped and why. */
  onEvent?: (event: EngramMemoryEvent) => void;
  /** Hands the background remember to the platform (Next.js `after`, Vercel `waitUntil`) so it outlives the
   * response. */
  waitUntil?: (promise: Promise<unknown>) => void;
}

export type EngramMemoryMiddleware = LanguageModelMiddleware & {
  /** Resolves when every remember started so far has finished (or failed, reported through onEvent). */
  flush(): Promise<void>;
};

/** The text of the latest user message (its text parts joined), or null when it has none (images, files only). */
export function latestUserText(prompt: Prompt): { text: string | null; found: boolean } {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== "user") continue;
    const text = message.content
      .flatMap((part) => (part.type === "text" ? [part.text] : []))
      .join("\n")
      .trim();
    return { text: text || null, found: true };
  }
  return { text: null, found: false };
}

function assistantText(content: GenerateResult["content"]): string {
  return content
    .flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join("")
    .trim();
}

/** The prompt with the memory block added to the system context: appended to the leading system message, or a
 * system message of its own before the first other message. */
function withMemory(prompt: Prompt, block: string): Prompt {
  const out = [...prompt];
  let last = -1;
  while (out[last + 1]?.role === "system") last++;
  const system = out[last];
  if (last >= 0 && system?.role === "system") {
    out[last] = { ...system, content: `${system.content}\n\n${block}` };
  } else {
    out.unshift({ role: "system", content: block });
  }
  return out;
}

function turnIds(turn: TurnIds | undefined): { user: string; assistant: string } | null {
  if (turn === undefined) return null;
  return typeof turn === "string" ? { user: `${turn}:user`, assistant: `${turn}:assistant` } : turn;
}

/** Memory for one user (and session, agent) around a language model: `wrapLanguageModel({ model, middleware })`.
 * Make one per request (it is cheap): it carries that request's scope and turn ids. */
export function engramMemory(options: EngramMemoryOptions): EngramMemoryMiddleware {
  const { engram, secrets } = clientOf(options.engram);
  const timeoutMs = options.timeoutMs ?? 2_000;
  const tokenBudget = options.tokenBudget ?? 1_000;
  const problem =
    scopeProblem(options) ??
    nameProblem("recallFilter.session", options.recallFilter?.session, false) ??
    nameProblem("recallFilter.agent", options.recallFilter?.agent, false);
  const ids = turnIds(options.turn);
  const idProblem = ids ? (nameProblem("turn.user", ids.user, true) ?? nameProblem("turn.assistant", ids.assistant, true)) : null;
  const pending = new Set<Promise<void>>();
  const recalls = new Map<string, Promise<string | null>>(); // by query: a tool loop's steps recall once
  let remembered = false;

  const emit = (event: EngramMemoryEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // a throwing callback must not fail the call either
    }
  };
  const skip = (step: "recall" | "remember", reason: SkipReason, message: string): void =>
    emit({ type: "skipped", step, reason, message: redact(message, secrets) });

  async function recallBlock(text: string): Promise<string | null> {
    const truncated = text.length > MAX_QUERY_CHARS;
    const query = truncated ? text.slice(-MAX_QUERY_CHARS) : text;
    const started = performance.now();
    let answer;
    try {
      answer = await withDeadline(
        engram.recall(query, {
          user: options.user,
          session: options.recallFilter?.session ?? null,
          agent: options.recallFilter?.agent ?? null,
          tokenBudget,
          limit: options.recall?.limit ?? null,
          minRelevance: options.recall?.minRelevance ?? null,
          recipe: options.recall?.recipe ?? null,
        }),
        timeoutMs,
      );
    } catch (error) {
      const failure = failureOf(error, secrets);
      skip("recall", failure.kind, `recall failed, the call goes on without memory: ${failure.message}`);
      return null;
    }
    const ms = performance.now() - started;
    if (answer.__typename !== "Recall") {
      skip("recall", "refused", `recall refused (${answer.__typename}): ${answer.message}`);
      return null;
    }
    const context = answer.items.length ? memoryContext(memoryLines(answer as RecallAnswer), tokenBudget) : null;
    if (!context) {
      emit({ type: "nothing-relevant", query, reason: answer.reason ?? null, ms });
      return null;
    }
    emit({ type: "recalled", query, truncated, lines: context.lines, tokens: context.tokens, ms });
    return context.text;
  }

  async function rememberTurn(userText: string, answer: string): Promise<void> {
    const texts: Array<{ text: string; id: string | null; speaker: string | null }> = [
      { text: userText, id: ids?.user ?? null, speaker: null },
    ];
    if (answer) texts.push({ text: answer, id: ids?.assistant ?? null, speaker: options.assistantSpeaker ?? "assistant" });
    const episodeIds: string[] = [];
    const jobIds: string[] = [];
    for (const { text, id, speaker } of texts) {
      let result;
      try {
        result = await withDeadline(
          engram.remember(text, {
            user: options.user,
            session: options.session ?? null,
            agent: options.agent ?? null,
            speaker,
            id,
          }),
          timeoutMs,
        );
      } catch (error) {
        const failure = failureOf(error, secrets);
        skip("remember", failure.kind, `remember failed, the exchange is not in memory: ${failure.message}`);
        return;
      }
      if (result.__typename !== "Job") {
        skip("remember", "refused", `remember refused (${result.__typename}): ${result.message}`);
        return;
      }
      jobIds.push(result.id);
      for (const source of result.sources) for (const episode of source.episodes) episodeIds.push(episode.externalId);
    }
    emit({ type: "remembered", episodeIds, jobIds });
  }

  /** Starts remembering the exchange in the background, once per middleware (the last step of a tool loop). */
  function afterCall(prompt: Prompt, answer: string, finish: string | undefined): void {
    if (options.remember === false || remembered || finish === "tool-calls" || finish === "error") return;
    remembered = true;
    const { text } = latestUserText(prompt);
    if (problem ?? idProblem) return skip("remember", "invalid-scope", `memory skipped: ${problem ?? idProblem}`);
    if (!text) return skip("remember", "no-text", "the latest user message has no text (images, files or tool results only): nothing remembered");
    if (text.length > MAX_TEXT_CHARS || answer.length > MAX_TEXT_CHARS) {
      return skip("remember", "too-long", `a message of ${Math.max(text.length, answer.length)} characters: over the ${MAX_TEXT_CHARS} Engram remembers at once; nothing remembered`);
    }
    // Started on the next turn of the event loop: the caller has its answer before a byte of the remember is sent.
    const job = new Promise<void>((resolve) => setTimeout(resolve, 0))
      .then(() => rememberTurn(text, answer))
      .catch((error: unknown) => skip("remember", "error", failureOf(error, secrets).message));
    pending.add(job);
    void job.finally(() => pending.delete(job));
    try {
      options.waitUntil?.(job);
    } catch {
      // the platform's hook failing leaves the remember running, as without it
    }
  }

  return {
    specificationVersion: "v4",

    async transformParams({ params }) {
      try {
        const { text, found } = latestUserText(params.prompt);
        if (!found) return params; // no user message at all: nothing to recall for, nothing to say
        if (problem) {
          skip("recall", "invalid-scope", `memory skipped: ${problem}`);
          return params;
        }
        if (!text) {
          skip("recall", "no-text", "the latest user message has no text (images, files or tool results only): nothing recalled");
          return params;
        }
        let block = recalls.get(text);
        if (!block) recalls.set(text, (block = recallBlock(text)));
        const memory = await block;
        return memory ? { ...params, prompt: withMemory(params.prompt, memory) } : params;
      } catch (error) {
        skip("recall", "error", failureOf(error, secrets).message);
        return params;
      }
    },

    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      try {
        afterCall(params.prompt, assistantText(result.content), result.finishReason?.unified);
      } catch (error) {
        skip("remember", "error", failureOf(error, secrets).message);
      }
      return result;
    },

    async wrapStream({ doStream, params }) {
      const result = await doStream();
      let answer = "";
      let finish: string | undefined;
      const watch = new TransformStream<StreamPart, StreamPart>({
        transform(part, controller) {
          if (part.type === "text-delta") answer += part.delta;
          else if (part.type === "finish") finish = part.finishReason?.unified;
          controller.enqueue(part);
        },
        flush() {
          try {
            if (finish !== undefined) afterCall(params.prompt, answer.trim(), finish);
          } catch (error) {
            skip("remember", "error", failureOf(error, secrets).message);
          }
        },
      });
      return { ...result, stream: result.stream.pipeThrough(watch) };
    },

    async flush() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}

export type { Engram };
