// What the memory middleware adds to a mocked model call beyond Engram's own recall. Against a running API
// (ENGRAM_E2E_URL, ENGRAM_E2E_KEY; bench/ai_sdk.py creates the space and writes bench/results/ai_sdk.json): a user
// with a few memories, then per round, in a shuffled order, the same generateText (the AI SDK's mock language model,
// answering after BENCH_MODEL_MS) plain, wrapped with engramMemory (recall, injection, the exchange remembered under
// a new turn id) and Engram's recall alone through the client. The middleware's own overhead per round: the wrapped
// call's wall time less the recall it made (timed inside the middleware, its `recalled` event) less the plain
// call's. Remember runs in the background: its jobs are waited for between rounds, outside the timings. Prints JSON.
import { Engram } from "@engram/client";
import { generateText, wrapLanguageModel } from "ai";
import { type EngramMemoryEvent, engramMemory } from "../src/index.js";
import { mockModel } from "../test/mock.js";

const url = process.env.ENGRAM_E2E_URL;
const apiKey = process.env.ENGRAM_E2E_KEY;
if (!url || !apiKey) throw new Error("set ENGRAM_E2E_URL and ENGRAM_E2E_KEY");
const rounds = Number(process.env.BENCH_ROUNDS ?? 40);
const modelMs = (process.env.BENCH_MODEL_MS ?? "0,50").split(",").map(Number);
const engram = new Engram({ url, apiKey });
const user = `bench-${Date.now().toString(36)}`;
const query = "Where do I keep my bike, and what is my cat called?";
const answer = "Your bike is in the garden shed and your cat is called Miso.";

async function settle(ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    for (;;) {
      const job = await engram.job(id);
      if (job.__typename !== "Job" || job.state === "SUCCEEDED" || job.state === "FAILED") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const p90 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))]!;
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

const seeds = [
  "I keep my red bike in the garden shed.",
  "My cat is called Miso.",
  "I live in Graz since last spring.",
  "My sister Lea works as a nurse.",
  "I am allergic to peanuts.",
];
const jobs: string[] = [];
for (const [i, text] of seeds.entries()) {
  const job = await engram.remember(text, { user, id: `seed-${i}` });
  if (job.__typename === "Job") jobs.push(job.id);
}
await settle(jobs);

const results = [];
let turn = 0;
for (const delay of modelMs) {
  const plain: number[] = [];
  const wrapped: number[] = [];
  const recallInCall: number[] = [];
  const recallAlone: number[] = [];
  const overhead: number[] = [];
  let injected = 0;
  for (let round = -3; round < rounds; round++) { // three warm-up rounds first
    const order = ["plain", "wrapped", "recall"].sort(() => Math.random() - 0.5);
    const times: Record<string, number> = {};
    let inCall = Number.NaN;
    let gotMemory = false;
    let jobIds: string[] = [];
    for (const what of order) {
      if (what === "recall") {
        const t0 = performance.now();
        await engram.recall(query, { user, tokenBudget: 1000 });
        times.recall = performance.now() - t0;
      } else if (what === "plain") {
        const t0 = performance.now();
        await generateText({ model: mockModel(answer, delay), prompt: query });
        times.plain = performance.now() - t0;
      } else {
        const events: EngramMemoryEvent[] = [];
        const memory = engramMemory({ engram, user, turn: `bench-turn-${turn++}`, onEvent: (e) => events.push(e) });
        const model = wrapLanguageModel({ model: mockModel(answer, delay), middleware: memory });
        const t0 = performance.now();
        await generateText({ model, prompt: query });
        times.wrapped = performance.now() - t0;
        await memory.flush();
        const recalled = events.find((e) => e.type === "recalled");
        if (recalled?.type === "recalled") {
          inCall = recalled.ms;
          gotMemory = recalled.lines.length > 0;
        }
        const done = events.find((e) => e.type === "remembered");
        jobIds = done?.type === "remembered" ? done.jobIds : [];
        if (!recalled || !done) throw new Error(`memory skipped: ${JSON.stringify(events)}`);
      }
    }
    await settle(jobIds); // the background remember's ingest, outside every timing
    if (round < 0) continue;
    if (gotMemory) injected++;
    plain.push(times.plain!);
    wrapped.push(times.wrapped!);
    recallInCall.push(inCall);
    recallAlone.push(times.recall!);
    overhead.push(times.wrapped! - inCall - times.plain!);
  }
  const medianPlain = median(plain);
  const medianOverhead = median(overhead);
  results.push({
    model_ms: delay,
    rounds,
    plain_call_ms: { median: r3(medianPlain), p90: r3(p90(plain)) },
    wrapped_call_ms: { median: r3(median(wrapped)), p90: r3(p90(wrapped)) },
    recall_in_call_ms: { median: r3(median(recallInCall)), p90: r3(p90(recallInCall)) },
    recall_alone_ms: { median: r3(median(recallAlone)), p90: r3(p90(recallAlone)) },
    middleware_overhead_ms: { median: r3(medianOverhead), p90: r3(p90(overhead)) },
    // (wrapped - its recall) / plain: what the middleware adds to the mocked call beyond Engram's own recall
    ratio_beyond_recall: r3((medianPlain + medianOverhead) / medianPlain),
    // wrapped / (plain + the client's recall alone), medians: the same question asked of independent timings
    ratio_vs_plain_plus_recall: r3(median(wrapped) / (medianPlain + median(recallAlone))),
    rounds_with_memory_injected: injected,
  });
}
await engram.forget({ user });
console.log(JSON.stringify({ user_memories: seeds.length, query, results }, null, 2));
