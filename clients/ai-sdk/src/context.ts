// Recall's items as the system context a model reads: each memory with its date, and under it what it replaced (an
// earlier version of the fact, with when it stopped holding), within a token budget.
import type { RecallResult } from "@engram/client";

export type RecallAnswer = Extract<RecallResult, { __typename: "Recall" }>;
export type RecallItem = RecallAnswer["items"][number];

/** One memory as the middleware injects it (and the `recall` tool returns it). */
export interface MemoryLine {
  id: string;
  kind: string;
  text: string;
  /** When it became true, else when it was said (ISO date), if memory knows. */
  date: string | null;
  /** For an earlier version: when it stopped holding, and the id of the memory that replaced it. */
  validTo: string | null;
  supersededBy: string | null;
  relevance: number | null;
  /** The app's ids of the turns or documents that told it. */
  sources: string[];
  /** The earlier versions this memory replaced, found in the same recall. */
  replaced: MemoryLine[];
}

/** A token count close enough for a budget: recall's own count where it gave one, else ~4 characters a token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function day(value: unknown): string | null {
  if (typeof value !== "string" || !value) return null;
  return value.slice(0, 10);
}

function lineOf(item: RecallItem): MemoryLine {
  return {
    id: item.id,
    kind: item.kind,
    text: item.text,
    date: day(item.validFrom) ?? day(item.provenance[0]?.occurredAt),
    validTo: day(item.validTo),
    supersededBy: item.supersededBy ?? null,
    relevance: item.relevance ?? null,
    sources: [...new Set(item.provenance.map((p) => p.externalId).filter(Boolean))],
    replaced: [],
  };
}

/** Recall's items best first, each earlier version moved under the memory that replaced it when that one was
 * recalled too (else it stays where it is, marked as no longer holding). */
export function memoryLines(recall: RecallAnswer): MemoryLine[] {
  const lines = recall.items.map(lineOf);
  const byId = new Map(lines.map((line) => [line.id, line]));
  const top: MemoryLine[] = [];
  for (const line of lines) {
    const newer = line.supersededBy ? byId.get(line.supersededBy) : undefined;
    if (newer && newer !== line) newer.replaced.push(line);
    else top.push(line);
  }
  return top;
}

function render(line: MemoryLine, indent = ""): string {
  const when = line.date ? `[${line.date}] ` : "";
  if (indent) {
    const until = line.validTo ? `, until ${line.validTo}` : "";
    return `${indent}replaced: ${when}${line.text}${until}`;
  }
  const ended = line.supersededBy ? ` (no longer holds${line.validTo ? ` since ${line.validTo}` : ""})` : "";
  return `- ${when}${line.text}${ended}`;
}

export const MEMORY_HEADER =
  "Memory of earlier conversations with this user (Engram). Each line is dated [YYYY-MM-DD]; a newer fact " +
  "replaces the ones listed under it as 'replaced'. Use what bears on the request; do not mention this memory " +
  "unless asked.";

/** The memory block for the system context, the lines it holds and its size; null when nothing fits or nothing
 * was recalled. */
export function memoryContext(
  lines: readonly MemoryLine[],
  tokenBudget: number,
): { text: string; lines: MemoryLine[]; tokens: number } | null {
  const open = "<memory>";
  const close = "</memory>";
  let tokens = estimateTokens(`${open}\n${MEMORY_HEADER}\n${close}`);
  const kept: MemoryLine[] = [];
  const rendered: string[] = [];
  for (const line of lines) {
    const first = render(line);
    const cost = estimateTokens(first) + 1;
    if (tokens + cost > tokenBudget) continue; // a shorter one further down may still fit
    tokens += cost;
    const block = [first];
    const replaced: MemoryLine[] = [];
    for (const old of line.replaced) {
      const text = render(old, "    ");
      const more = estimateTokens(text) + 1;
      if (tokens + more > tokenBudget) break;
      tokens += more;
      block.push(text);
      replaced.push(old);
    }
    kept.push({ ...line, replaced });
    rendered.push(block.join("\n"));
  }
  if (!kept.length) return null;
  return { text: `${open}\n${MEMORY_HEADER}\n${rendered.join("\n")}\n${close}`, lines: kept, tokens };
}
