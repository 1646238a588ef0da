// The AI SDK's own mock language model (ai/test), answering a fixed text by generate or by stream, and keeping the
// prompts it was called with: what a test reads to see what memory the middleware put into the system context.
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

export function mockModel(answer = "Noted.", delayMs = 0): MockLanguageModelV4 {
  const wait = (): Promise<void> => (delayMs > 0 ? new Promise((resolve) => setTimeout(resolve, delayMs)) : Promise.resolve());
  return new MockLanguageModelV4({
    doGenerate: async () => {
      await wait();
      return {
        content: [{ type: "text", text: answer }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      };
    },
    doStream: async () => {
      await wait();
      const words = answer.split(/(?<= )/);
      return {
        stream: convertArrayToReadableStream([
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t" },
          ...words.map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop" as const, raw: "stop" }, usage },
        ]),
      };
    },
  });
}

/** The system context of the model's last call (every system message, joined). */
export function systemOf(model: MockLanguageModelV4, stream = false): string {
  const calls = stream ? model.doStreamCalls : model.doGenerateCalls;
  const prompt = calls.at(-1)?.prompt ?? [];
  return prompt.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n");
}
