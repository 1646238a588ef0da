// What the middleware and the tools share: the client they talk through, the scope they write in, its checks, a
// deadline on every Engram call, and the redaction that keeps a key out of any message they hand back.
import { Engram, HttpError } from "@engram/client";

/** The server's limits (app/api/context.py MAX_USER_CHARS, app/api/schema/query.py MAX_QUERY_CHARS,
 * engram/formats/records.py MAX_DOCUMENT_CHARS), checked here first so a bad input costs no round trip. */
export const MAX_NAME_CHARS = 200;
export const MAX_QUERY_CHARS = 2_000;
export const MAX_TEXT_CHARS = 2_000_000;

/** Where Engram is: a client of your own, or its URL and a space's key (`egk_...`). */
export type EngramConnection = Engram | { url: string; apiKey: string };

/** Whose memory: a user's (required), narrowed to one agent and one session when given. */
export interface EngramScope {
  /** The end user whose memory this is (1-200 printable characters; any other character is refused here). */
  user: string;
  /** The app's session or conversation id: what is remembered is filed under it; recall reads the user's whole
   * memory unless `recallSessionOnly` is set. */
  session?: string;
  /** The agent that remembers (recall is narrowed to it only with `recallAgentOnly`). */
  agent?: string;
}

export function clientOf(connection: EngramConnection): { engram: Engram; secrets: string[] } {
  if (connection instanceof Engram) return { engram: connection, secrets: [] };
  return { engram: new Engram({ url: connection.url, apiKey: connection.apiKey }), secrets: [connection.apiKey] };
}

/** Python's `str.isprintable()`, as the server checks a user name: no control, format, separator (but the plain
 * space), private-use or unassigned character. */
const NOT_PRINTABLE = /[\p{C}\p{Zl}\p{Zp}]|[^\P{Zs} ]/u;

/** Why a scope name is refused, or null when it is fine. */
export function nameProblem(what: string, name: string | undefined, required: boolean): string | null {
  if (name === undefined) return required ? `${what}: required` : null;
  if (typeof name !== "string") return `${what}: a string`;
  if (!name.trim()) return `${what}: empty`;
  if (name.length > MAX_NAME_CHARS) return `${what}: ${name.length} characters; at most ${MAX_NAME_CHARS}`;
  if (NOT_PRINTABLE.test(name)) return `${what}: only printable characters (no control characters, tabs or newlines)`;
  return null;
}

export function scopeProblem(scope: EngramScope): string | null {
  return (
    nameProblem("user", scope.user, true) ??
    nameProblem("session", scope.session, false) ??
    nameProblem("agent", scope.agent, false)
  );
}

/** The text of an error with every secret (the key we were given, anything shaped like an Engram key, a password in
 * a URL) blotted out: what reaches a callback or a tool result may end up in a log. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  return out
    .replace(/egk_[A-Za-z0-9_-]+/g, "egk_[redacted]")
    .replace(/(Bearer\s+)\S+/gi, "$1[redacted]")
    .replace(/\/\/[^/@\s]+@/g, "//[redacted]@");
}

export class Timeout extends Error {
  constructor(readonly ms: number) {
    super(`Engram did not answer within ${ms} ms`);
    this.name = "Timeout";
  }
}

/** `promise`, or a Timeout after `ms` (the request itself is left to finish or fail on its own, unobserved). */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  if (!Number.isFinite(ms) || ms <= 0) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout(ms)), ms);
  });
  promise.catch(() => undefined); // a late failure after the deadline is not an unhandled rejection
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** What went wrong, in words: "unavailable" (no answer, 5xx), "timeout", "unauthorized" (401/403), "refused" (the
 * server's InvalidInput / OverBudget / NotFound), "error" (anything else). */
export type FailureKind = "unavailable" | "timeout" | "unauthorized" | "refused" | "error";

export function failureOf(error: unknown, secrets: readonly string[]): { kind: FailureKind; message: string } {
  const message = redact(error instanceof Error ? error.message : String(error), secrets);
  if (error instanceof Timeout) return { kind: "timeout", message };
  if (error instanceof HttpError) {
    if (error.status === 401 || error.status === 403) return { kind: "unauthorized", message };
    return { kind: error.status >= 500 ? "unavailable" : "error", message };
  }
  if (error instanceof Error && error.name === "NetworkError") return { kind: "unavailable", message };
  return { kind: "error", message };
}
