// Without a stack: the memory block (dates, what a fact replaced, the token budget), bad input (no text, a user name
// the server refuses, a key in an error), and an outage (a closed port, a server that never answers) that leaves
// generateText and streamText working without memory, said through onEvent.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { generateText, isStepCount, streamText, tool, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { type EngramMemoryEvent, engramMemory, engramTools, memoryContext, memoryLines, redact } from "../src/index.js";
import type { RecallAnswer } from "../src/context.js";
import { mockModel, systemOf } from "./mock.js";

const KEY = "egk_unit_secret_key_0123456789";

function item(id: string, text: string, extra: Partial<RecallAnswer["items"][number]> = {}): RecallAnswer["items"][number] {
  return {
    __typename: "RecallHit",
    id,
    kind: "proposition",
    text,
    score: 1,
    components: {},
    tokens: Math.ceil(text.length / 4),
    foundBy: ["dense"],
    relevance: 0.9,
    validFrom: null,
    supersededBy: null,
    validTo: null,
    provenance: [],
    node: null,
    ...extra,
  } as RecallAnswer["items"][number];
}

function answer(items: RecallAnswer["items"]): RecallAnswer {
  return { __typename: "Recall", items, reason: null } as unknown as RecallAnswer;
}

describe("the memory block", () => {
  test("dates each memory and puts what it replaced under it", () => {
    const lines = memoryLines(
      answer([
        item("p2", "Ana lives in Graz.", { validFrom: "2025-03-01T00:00:00Z" }),
        item("p1", "Ana lives in Porto.", { validFrom: "2024-01-10T00:00:00Z", validTo: "2025-03-01T00:00:00Z", supersededBy: "p2" }),
        item("p3", "Ana has a cat called Miso.", { provenance: [{ __typename: "ProvenanceEpisode", episodeId: "e", externalId: "t7:user", sourceId: "s", speaker: "ana", text: "", occurredAt: "2024-06-02T10:00:00Z" }] }),
      ]),
    );
    assert.deepEqual(lines.map((l) => l.id), ["p2", "p3"]);
    assert.deepEqual(lines[0]?.replaced.map((l) => l.id), ["p1"]);
    assert.deepEqual(lines[1]?.sources, ["t7:user"]);
    const block = memoryContext(lines, 1000);
    assert.ok(block);
    assert.match(block.text, /- \[2025-03-01\] Ana lives in Graz\.\n {4}replaced: \[2024-01-10\] Ana lives in Porto\., until 2025-03-01/);
    assert.match(block.text, /- \[2024-06-02\] Ana has a cat called Miso\./);
  });

  test("an earlier version whose successor was not recalled says it no longer holds", () => {
    const lines = memoryLines(answer([item("p1", "Ana lives in Porto.", { validTo: "2025-03-01", supersededBy: "p9" })]));
    assert.match(memoryContext(lines, 1000)?.text ?? "", /Porto\. \(no longer holds since 2025-03-01\)/);
  });

  test("keeps within the token budget, and nothing when nothing fits", () => {
    const many = Array.from({ length: 50 }, (_, i) => item(`p${i}`, `Fact number ${i} about a fairly long subject line.`));
    const block = memoryContext(memoryLines(answer(many)), 200);
    assert.ok(block && block.tokens <= 200 && block.lines.length > 0 && block.lines.length < 50);
    assert.equal(memoryContext(memoryLines(answer(many)), 10), null);
    assert.equal(memoryContext([], 1000), null);
  });
});

describe("secrets", () => {
  test("redact blots out the key, Engram-shaped keys, bearer tokens and URL passwords", () => {
    const text = redact(`failed ${KEY} egk_other Bearer abc.def http://bob:pw@host/graphql`, [KEY]);
    assert.ok(!text.includes(KEY) && !text.includes("egk_other") && !text.includes("abc.def") && !text.includes("pw@"));
  });
});

describe("Engram down or slow: the call goes on without memory", () => {
  let closedUrl: string;
  let silent: Server;
  let silentUrl: string;
  before(async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    silent = createServer(() => undefined); // takes the request and never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  after(() => {
    silent.closeAllConnections();
    silent.close();
  });

  for (const mode of ["generate", "stream"] as const) {
    test(`unreachable (${mode}Text)`, async () => {
      const events: EngramMemoryEvent[] = [];
      const memory = engramMemory({ engram: { url: closedUrl, apiKey: KEY }, user: "ana", turn: "t1", onEvent: (e) => events.push(e) });
      const model = mockModel("Hello Ana.");
      const wrapped = wrapLanguageModel({ model, middleware: memory });
      const text = mode === "generate"
        ? (await generateText({ model: wrapped, system: "Be brief.", prompt: "Where do I live?" })).text
        : await streamText({ model: wrapped, prompt: "Where do I live?" }).text;
      await memory.flush();
      assert.equal(text, "Hello Ana.");
      assert.ok(!systemOf(model, mode === "stream").includes("<memory>"));
      const skipped = events.filter((e) => e.type === "skipped");
      assert.deepEqual(skipped.map((e) => [e.step, e.reason]), [["recall", "unavailable"], ["remember", "unavailable"]]);
      assert.ok(!JSON.stringify(events).includes(KEY));
    });
  }

  test("slower than the timeout: the call is not held up", async () => {
    const events: EngramMemoryEvent[] = [];
    const memory = engramMemory({ engram: { url: silentUrl, apiKey: KEY }, user: "ana", timeoutMs: 300, onEvent: (e) => events.push(e) });
    const started = performance.now();
    const result = await generateText({ model: wrapLanguageModel({ model: mockModel("ok"), middleware: memory }), prompt: "Hi?" });
    await memory.flush();
    const ms = performance.now() - started;
    assert.equal(result.text, "ok");
    assert.ok(ms < 2_000, `${ms} ms`);
    assert.deepEqual(events.filter((e) => e.type === "skipped").map((e) => e.type === "skipped" && e.reason), ["timeout", "timeout"]);
  });

  test("a tool loop: one recall for the turn, one remember after its last step", async () => {
    const events: EngramMemoryEvent[] = [];
    const memory = engramMemory({ engram: { url: closedUrl, apiKey: KEY }, user: "ana", turn: "t2", onEvent: (e) => events.push(e) });
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    const model = new MockLanguageModelV4({
      doGenerate: async (options) =>
        options.prompt.at(-1)?.role === "tool"
          ? { content: [{ type: "text", text: "It is 12:00." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] }
          : { content: [{ type: "tool-call", toolCallId: "c1", toolName: "clock", input: "{}" }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] },
    });
    const clock = tool({ description: "the time", inputSchema: z.object({}), execute: async () => "12:00" });
    const result = await generateText({ model: wrapLanguageModel({ model, middleware: memory }), tools: { clock }, stopWhen: isStepCount(3), prompt: "What time is it?" });
    await memory.flush();
    assert.equal(result.text, "It is 12:00.");
    assert.equal(model.doGenerateCalls.length, 2);
    assert.deepEqual(events.map((e) => e.type === "skipped" && e.step), ["recall", "remember"]);
  });

  test("the tools answer a failure the model can read, not a throw", async () => {
    const tools = engramTools({ engram: { url: closedUrl, apiKey: KEY }, user: "ana" });
    const options = { toolCallId: "c1", messages: [], context: {} } as never;
    const recalled = await tools.recall.execute({ query: "Where do I live?" }, options);
    assert.ok(!(Symbol.asyncIterator in Object(recalled)));
    assert.deepEqual([(recalled as { ok: boolean }).ok, (recalled as { reason: string }).reason], [false, "unavailable"]);
    assert.ok(!JSON.stringify(recalled).includes(KEY));
  });
});

describe("bad input: a skipped memory step, never a thrown call", () => {
  test("a user name with a control character", async () => {
    const events: EngramMemoryEvent[] = [];
    const memory = engramMemory({ engram: { url: "http://127.0.0.1:9", apiKey: KEY }, user: "ana\u0000\n", onEvent: (e) => events.push(e) });
    const result = await generateText({ model: wrapLanguageModel({ model: mockModel("ok"), middleware: memory }), prompt: "Hi" });
    await memory.flush();
    assert.equal(result.text, "ok");
    assert.deepEqual(events.map((e) => e.type === "skipped" && [e.step, e.reason]), [["recall", "invalid-scope"], ["remember", "invalid-scope"]]);
    const tools = engramTools({ engram: { url: "http://127.0.0.1:9", apiKey: KEY }, user: "" });
    const out = await tools.remember.execute({ text: "x" }, { toolCallId: "c", messages: [], context: {} } as never);
    assert.equal((out as { reason: string }).reason, "invalid-scope");
  });

  test("a message with no text (an image only)", async () => {
    const events: EngramMemoryEvent[] = [];
    const memory = engramMemory({ engram: { url: "http://127.0.0.1:9", apiKey: KEY }, user: "ana", onEvent: (e) => events.push(e) });
    const image = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
    const result = await generateText({
      model: wrapLanguageModel({ model: mockModel("A picture."), middleware: memory }),
      messages: [{ role: "user", content: [{ type: "file", data: image, mediaType: "image/png" }] }],
    });
    await memory.flush();
    assert.equal(result.text, "A picture.");
    assert.deepEqual(events.map((e) => e.type === "skipped" && [e.step, e.reason]), [["recall", "no-text"], ["remember", "no-text"]]);
  });

  test("a throwing onEvent does not fail the call", async () => {
    const memory = engramMemory({ engram: { url: "http://127.0.0.1:9", apiKey: KEY }, user: "ana", onEvent: () => { throw new Error("boom"); } });
    const result = await generateText({ model: wrapLanguageModel({ model: mockModel("ok"), middleware: memory }), prompt: "Hi" });
    await memory.flush();
    assert.equal(result.text, "ok");
  });
});
