// End to end against a running API (make test runs it from tests/e2e/clients/test_ai_sdk.py, which creates a space
// and passes ENGRAM_E2E_URL and ENGRAM_E2E_KEY), with the AI SDK's mock language model: recall injected into the
// system context (dated; what a fact replaced, when recall returns it, is unit-tested), "nothing relevant" injecting nothing, the exchange remembered
// under the app's turn ids once, generateText and streamText, the tools, odd users and a 2 MB message.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Engram } from "@engram/client";
import { generateText, isStepCount, streamText, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { type EngramMemoryEvent, engramMemory, engramTools } from "../src/index.js";
import { mockModel, systemOf } from "./mock.js";

const url = process.env.ENGRAM_E2E_URL;
const apiKey = process.env.ENGRAM_E2E_KEY;
const skip = !url || !apiKey ? "no ENGRAM_E2E_URL" : false;
const run = Date.now().toString(36);
const engram = new Engram({ url: url ?? "http://127.0.0.1:9", apiKey: apiKey ?? "egk_none" });
const toolOptions = { toolCallId: "c", messages: [], context: {} } as never;
const timeoutMs = 30_000; // behaviour here, not latency (a loaded test machine): the bench times it

async function settle(jobIds: readonly string[]): Promise<void> {
  for (const id of jobIds) {
    for (let i = 0; ; i++) {
      const job = await engram.job(id);
      if (job.__typename === "Job" && (job.state === "SUCCEEDED" || job.state === "FAILED")) {
        assert.equal(job.state, "SUCCEEDED", job.error ?? "");
        break;
      }
      assert.ok(i < 600, `job ${id} did not finish`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function remember(user: string, text: string, id: string, at?: string): Promise<void> {
  const job = await engram.remember(text, { user, id, at: at ?? null });
  assert.equal(job.__typename, "Job", JSON.stringify(job));
  if (job.__typename === "Job") await settle([job.id]);
}

async function episodes(user: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const memory of engram.memories({ user, kinds: ["EPISODE"] })) {
    for (const origin of memory.origins) if (origin.episodeExternalId) ids.push(origin.episodeExternalId);
  }
  return ids.sort();
}

function remembered(events: EngramMemoryEvent[]): Extract<EngramMemoryEvent, { type: "remembered" }> {
  const event = events.find((e) => e.type === "remembered");
  assert.ok(event && event.type === "remembered", JSON.stringify(events));
  return event;
}

after(async () => {
  for (const user of [`ana-${run}`, `bo-${run}`, `odd+${run}@example.com/ü ✓ 🐈 'x'`, `big-${run}`]) {
    await engram.forget({ user }).catch(() => undefined);
  }
});

describe("the middleware against Engram", { skip }, () => {
  const ana = `ana-${run}`;

  test("recalls for the latest user message and injects it dated (the corrected fact current)", async () => {
    await remember(ana, "I live in Porto.", "home-1", "2024-01-10T09:00:00Z");
    await remember(ana, "My cat is called Miso.", "cat-1", "2024-02-03T09:00:00Z");
    const propositions = [];
    for await (const memory of engram.memories({ user: ana, kinds: ["PROPOSITION"] })) propositions.push(memory);
    const porto = propositions.find((m) => /Porto/.test(m.text));
    assert.ok(porto, JSON.stringify(propositions.map((m) => m.text)));
    const corrected = await engram.correct(porto.id, "I live in Graz.", { user: ana, validFrom: "2025-03-01T00:00:00Z", reason: "moved" });
    assert.equal(corrected.__typename, "Corrected");

    const events: EngramMemoryEvent[] = [];
    const model = mockModel("You live in Graz.");
    const memory = engramMemory({ engram, timeoutMs, user: ana, session: "chat-1", remember: false, onEvent: (e) => events.push(e) });
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: memory }),
      system: "You are a helpful assistant.",
      messages: [
        { role: "user", content: "Hello!" },
        { role: "assistant", content: "Hi, how can I help?" },
        { role: "user", content: "Where do I live these days?" },
      ],
    });
    assert.equal(result.text, "You live in Graz.");
    const system = systemOf(model);
    assert.match(system, /^You are a helpful assistant\.\n\n<memory>/);
    assert.match(system, /- \[2025-03-01\] I live in Graz\./, system);
    const event = events.find((e) => e.type === "recalled");
    assert.ok(event && event.type === "recalled" && event.query === "Where do I live these days?" && event.tokens <= 1000);
  });

  test("nothing relevant: nothing is injected", async () => {
    const events: EngramMemoryEvent[] = [];
    const model = mockModel("I don't know.");
    const memory = engramMemory({ engram, timeoutMs, user: ana, remember: false, onEvent: (e) => events.push(e) });
    await generateText({ model: wrapLanguageModel({ model, middleware: memory }), prompt: "What did Quorvath Blenshire order at the zeppelin bakery?" });
    assert.ok(!systemOf(model).includes("<memory>"), systemOf(model));
    assert.deepEqual(events.map((e) => e.type), ["nothing-relevant"]);
  });

  test("remembers the exchange under the app's turn ids, once (generateText, then streamText)", async () => {
    const bo = `bo-${run}`;
    const events: EngramMemoryEvent[] = [];
    const call = async (mode: "generate" | "stream", turn: string, text: string): Promise<string> => {
      const memory = engramMemory({ engram, timeoutMs, user: bo, session: "s1", agent: "helper", turn, onEvent: (e) => events.push(e) });
      const model = wrapLanguageModel({ model: mockModel("Good to know, I will remember your bike."), middleware: memory });
      const out = mode === "generate" ? (await generateText({ model, prompt: text })).text : await streamText({ model, prompt: text }).text;
      await memory.flush();
      return out;
    };
    assert.equal(await call("generate", "turn-1", "I keep my red bike in the garden shed."), "Good to know, I will remember your bike.");
    const first = remembered(events);
    assert.deepEqual(first.episodeIds, ["turn-1:user", "turn-1:assistant"]);
    await settle(first.jobIds);
    assert.deepEqual(await episodes(bo), ["turn-1:assistant", "turn-1:user"]);

    events.length = 0;
    await call("generate", "turn-1", "I keep my red bike in the garden shed."); // the app retries the same turn
    await settle(remembered(events).jobIds);
    events.length = 0;
    assert.equal(await call("stream", "turn-2", "My bike's lock code is in my notebook."), "Good to know, I will remember your bike.");
    await settle(remembered(events).jobIds);
    assert.deepEqual(await episodes(bo), ["turn-1:assistant", "turn-1:user", "turn-2:assistant", "turn-2:user"]);

    const recalled = await engram.recall("Where is my bike?", { user: bo, session: "s1", agent: "helper" });
    assert.ok(recalled.__typename === "Recall" && recalled.items.some((i) => /shed/.test(i.text)), JSON.stringify(recalled));
  });

  test("a user name with odd (printable) characters works; a 2 MB message skips what cannot be done", async () => {
    const odd = `odd+${run}@example.com/ü ✓ 🐈 'x'`;
    await remember(odd, "My favourite tea is genmaicha.", "tea-1");
    const events: EngramMemoryEvent[] = [];
    const model = mockModel("Genmaicha.");
    const memory = engramMemory({ engram, timeoutMs, user: odd, turn: "t-odd", onEvent: (e) => events.push(e) });
    await generateText({ model: wrapLanguageModel({ model, middleware: memory }), prompt: "Which tea do I like?" });
    await memory.flush();
    assert.match(systemOf(model), /genmaicha/);
    await settle(remembered(events).jobIds);

    const big = `big-${run}`;
    const huge = `${"lorem ipsum dolor sit amet ".repeat(80_000)}\nWhich tea do I like?`; // > 2 MB
    assert.ok(huge.length > 2_000_000);
    const bigEvents: EngramMemoryEvent[] = [];
    const bigMemory = engramMemory({ engram, timeoutMs, user: big, turn: "t-big", onEvent: (e) => bigEvents.push(e) });
    const out = await generateText({ model: wrapLanguageModel({ model: mockModel("ok"), middleware: bigMemory }), prompt: huge });
    await bigMemory.flush();
    assert.equal(out.text, "ok");
    const asked = bigEvents.find((e) => e.type === "nothing-relevant" || e.type === "recalled");
    assert.ok(asked && (asked.type === "nothing-relevant" || asked.type === "recalled") && asked.query.length === 2_000, JSON.stringify(bigEvents).slice(0, 500));
    assert.ok(bigEvents.some((e) => e.type === "skipped" && e.step === "remember" && e.reason === "too-long"));
  });

  test("a wrong key: the call goes on, unauthorized is said, the key is in no message", async () => {
    const wrongKey = "egk_wrong_key_for_the_test_0123456789";
    const events: EngramMemoryEvent[] = [];
    const memory = engramMemory({ engram: { url: url!, apiKey: wrongKey }, user: ana, onEvent: (e) => events.push(e) });
    const out = await generateText({ model: wrapLanguageModel({ model: mockModel("ok"), middleware: memory }), prompt: "Where do I live?" });
    await memory.flush();
    assert.equal(out.text, "ok");
    assert.deepEqual(events.map((e) => e.type === "skipped" && e.reason), ["unauthorized", "unauthorized"]);
    assert.ok(!JSON.stringify(events).includes(wrongKey) && !JSON.stringify(events).includes(apiKey!));
  });
});

describe("the tools against Engram", { skip }, () => {
  test("remember, recall, correct and forget, typed; one called by the model through generateText", async () => {
    const user = `ana-${run}`;
    const tools = engramTools({ engram, user, session: "tools" });
    const saved = await tools.remember.execute({ text: "My sister Lea works as a nurse.", id: "lea-1" }, toolOptions);
    assert.ok(!(Symbol.asyncIterator in Object(saved)));
    const ok = saved as Awaited<ReturnType<NonNullable<typeof tools.remember.execute>>> & { ok: boolean };
    assert.ok(ok.ok && "jobId" in ok, JSON.stringify(saved));
    if (!("jobId" in ok)) return;
    assert.deepEqual(ok.episodeIds, ["lea-1"]);
    await settle([ok.jobId]);

    const found = (await tools.recall.execute({ query: "What does Lea do?" }, toolOptions)) as { ok: true; memories: Array<{ id: string; text: string; date: string | null; sources: string[] }> };
    assert.ok(found.ok);
    const nurse = found.memories.find((m) => /nurse/.test(m.text));
    assert.ok(nurse && nurse.sources.includes("lea-1") && nurse.date, JSON.stringify(found));

    const fixed = (await tools.correct.execute({ id: nurse.id, text: "My sister Lea works as a doctor.", reason: "graduated" }, toolOptions)) as { ok: boolean; id: string; replacedId: string };
    assert.ok(fixed.ok && fixed.replacedId === nurse.id, JSON.stringify(fixed));
    const missing = (await tools.correct.execute({ id: "no-such-id", text: "x" }, toolOptions)) as { ok: boolean; reason: string };
    assert.deepEqual([missing.ok, missing.reason], [false, "refused"]);

    const gone = (await tools.forget.execute({ ids: [fixed.id] }, toolOptions)) as { ok: boolean; forgotten: number };
    assert.ok(gone.ok && gone.forgotten === 1, JSON.stringify(gone));

    // The model calls `recall`, reads the result, answers.
    const model = new MockLanguageModelV4({
      doGenerate: async (options) => {
        const last = options.prompt.at(-1);
        if (last?.role === "tool") {
          return { content: [{ type: "text", text: "Your cat is Miso." }], finishReason: { unified: "stop", raw: "stop" }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }, warnings: [] };
        }
        return {
          content: [{ type: "tool-call", toolCallId: "call-1", toolName: "recall", input: JSON.stringify({ query: "What is my cat called?" }) }],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
          warnings: [],
        };
      },
    });
    const result = await generateText({ model, tools, stopWhen: isStepCount(3), prompt: "What is my cat called?" });
    assert.equal(result.text, "Your cat is Miso.");
    const output = result.steps[0]?.toolResults[0]?.output as { ok: boolean; memories: Array<{ text: string }> };
    assert.ok(output.ok && output.memories.some((m) => /Miso/.test(m.text)), JSON.stringify(output));
  });
});
