// Tools for tool-calling agents: remember, recall, forget, correct, each with a zod input schema and a typed result.
// A result is `{ ok: true, ... }` or `{ ok: false, error, reason }`: Engram down, a refusal or a bad argument is told to
// the model as a result it can act on, never thrown into the agent loop (and never with the key in it).
import { tool } from "ai";
import { z } from "zod";
import {
  type EngramConnection,
  type EngramScope,
  type FailureKind,
  MAX_NAME_CHARS,
  MAX_QUERY_CHARS,
  MAX_TEXT_CHARS,
  clientOf,
  failureOf,
  redact,
  scopeProblem,
  withDeadline,
} from "./common.js";
import { type MemoryLine, type RecallAnswer, memoryLines } from "./context.js";

export interface EngramToolsOptions extends EngramScope {
  engram: EngramConnection;
  /** How long one tool call may wait for Engram; default 10,000 ms. */
  timeoutMs?: number;
}

export type ToolFailure = { ok: false; reason: "invalid-scope" | FailureKind; error: string };

export type RememberToolResult =
  | { ok: true; jobId: string; episodeIds: string[]; note: string }
  | ToolFailure;
export type RecallToolResult =
  | { ok: true; memories: MemoryLine[]; nothingRelevant: boolean; reason: string | null }
  | ToolFailure;
export type ForgetToolResult =
  | { ok: true; forgotten: number; knowledgeRemoved: number; episodesRemoved: number; notFound: string[] }
  | ToolFailure;
export type CorrectToolResult =
  | { ok: true; id: string; replacedId: string; text: string }
  | ToolFailure;

export const rememberInput = z.object({
  text: z.string().min(1).max(MAX_TEXT_CHARS).describe("what to remember, as a statement in the user's words"),
  id: z.string().min(1).max(MAX_NAME_CHARS).optional().describe("your id for it: remembering the same id again writes nothing new"),
});
export const recallInput = z.object({
  query: z.string().min(1).max(MAX_QUERY_CHARS).describe("a question or a few words about what to look for"),
  limit: z.number().int().min(1).max(50).optional().describe("most memories to return (default 10)"),
});
export const forgetInput = z.object({
  ids: z.array(z.string().min(1)).min(1).max(100).describe("ids of memories returned by recall"),
});
export const correctInput = z.object({
  id: z.string().min(1).describe("the id of the memory (a recalled fact) that is wrong or out of date"),
  text: z.string().min(1).max(MAX_QUERY_CHARS).describe("the corrected statement, in full"),
  reason: z.string().max(500).optional().describe("why, in a few words"),
});

/** The four tools, bound to one user's memory (and session, agent): `generateText({ tools: engramTools(...) })`. */
export function engramTools(options: EngramToolsOptions) {
  const { engram, secrets } = clientOf(options.engram);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const problem = scopeProblem(options);
  const scope = { user: options.user };

  async function guarded<T>(run: () => Promise<T | ToolFailure>): Promise<T | ToolFailure> {
    if (problem) return { ok: false, reason: "invalid-scope", error: problem };
    try {
      return await run();
    } catch (error) {
      const failure = failureOf(error, secrets);
      return { ok: false, reason: failure.kind, error: failure.message };
    }
  }
  const refused = (message: string): ToolFailure => ({ ok: false, reason: "refused", error: redact(message, secrets) });

  return {
    remember: tool({
      description:
        "Save something worth knowing in later conversations (a fact about the user, a preference, a decision). " +
        "It becomes recallable once Engram has read it, within seconds.",
      inputSchema: rememberInput,
      execute: ({ text, id }): Promise<RememberToolResult> =>
        guarded(async () => {
          const answer = await withDeadline(
            engram.remember(text, { ...scope, session: options.session ?? null, agent: options.agent ?? null, id: id ?? null }),
            timeoutMs,
          );
          if (answer.__typename !== "Job") return refused(answer.message);
          const episodeIds = answer.sources.flatMap((s) => s.episodes.map((e) => e.externalId));
          return { ok: true, jobId: answer.id, episodeIds, note: "queued: recallable once read" };
        }),
    }),

    recall: tool({
      description:
        "Look up what memory holds about the user for a question: facts with their dates, what each replaced, " +
        "and the ids of the turns that told them. An empty answer means nothing relevant is known.",
      inputSchema: recallInput,
      execute: ({ query, limit }): Promise<RecallToolResult> =>
        guarded(async () => {
          const answer = await withDeadline(engram.recall(query, { ...scope, limit: limit ?? 10 }), timeoutMs);
          if (answer.__typename !== "Recall") return refused(answer.message);
          const memories = memoryLines(answer as RecallAnswer);
          return { ok: true, memories, nothingRelevant: memories.length === 0, reason: answer.reason ?? null };
        }),
    }),

    forget: tool({
      description: "Forget memories by the ids recall returned (what only they proved goes with them).",
      inputSchema: forgetInput,
      execute: ({ ids }): Promise<ForgetToolResult> =>
        guarded(async () => {
          const answer = await withDeadline(engram.forget({ ...scope, knowledgeIds: ids }), timeoutMs);
          if (answer.__typename !== "Forgotten") return refused(answer.message);
          return {
            ok: true,
            forgotten: answer.knowledgeIds.length + answer.episodeIds.length,
            knowledgeRemoved: answer.knowledgeRemoved ?? 0,
            episodesRemoved: answer.episodesRemoved ?? 0,
            notFound: answer.notFound,
          };
        }),
    }),

    correct: tool({
      description:
        "Correct a recalled fact that is wrong or out of date: the new statement replaces it, the old one stays " +
        "as history (recall shows it as replaced).",
      inputSchema: correctInput,
      execute: ({ id, text, reason }): Promise<CorrectToolResult> =>
        guarded(async () => {
          const answer = await withDeadline(engram.correct(id, text, { ...scope, reason: reason ?? "" }), timeoutMs);
          if (answer.__typename !== "Corrected") return refused(answer.message);
          return { ok: true, id: answer.propositionId, replacedId: answer.supersedesId, text: answer.proposition?.text ?? text };
        }),
    }),
  };
}

export type EngramTools = ReturnType<typeof engramTools>;
