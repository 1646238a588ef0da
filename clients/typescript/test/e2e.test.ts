// End to end against a running API (make test runs it from tests/e2e/clients/test_typescript_client.py, which
// creates a space and passes ENGRAM_E2E_URL and ENGRAM_E2E_KEY): one user's memory through the facade.
import assert from "node:assert/strict";
import { test } from "node:test";
import WebSocket from "ws";
import { Engram, HttpError, type JobProgress } from "../src/index.js";

const url = process.env.ENGRAM_E2E_URL;
const apiKey = process.env.ENGRAM_E2E_KEY;
const user = `ts-${Date.now().toString(36)}`;

test("one user's memory through the TypeScript client", { skip: !url || !apiKey ? "no ENGRAM_E2E_URL" : false }, async () => {
  const engram = new Engram({ url: url!, apiKey: apiKey!, webSocketImpl: WebSocket });
  try {
    const job = await engram.remember("I keep my red bike in the garden shed.", { user, id: "bike" });
    assert.equal(job.__typename, "Job");
    if (job.__typename !== "Job") return;
    const progress: JobProgress[] = [];
    for await (const event of engram.jobProgress(job.id)) progress.push(event);
    assert.equal(progress.at(-1)?.state, "SUCCEEDED");

    const recalled = await engram.recall("Where is the bike?", { user });
    assert.equal(recalled.__typename, "Recall");
    if (recalled.__typename !== "Recall") return;
    const fact = recalled.items.find((item) => item.kind === "proposition" && /bike/.test(item.text))
      ?? recalled.items.find((item) => /bike/.test(item.text));
    assert.ok(fact, JSON.stringify(recalled.items.map((i) => [i.kind, i.text])));
    assert.equal(fact.provenance[0]?.externalId, "bike");

    const memories = [];
    for await (const memory of engram.memories({ user, kinds: ["EPISODE"] })) memories.push(memory);
    assert.deepEqual(memories.map((m) => m.origins[0]?.episodeExternalId), ["bike"]);
    const users = [];
    for await (const name of engram.users()) users.push(name);
    assert.ok(users.includes(user));
    const profile = await engram.profile(user);
    assert.equal(profile.__typename, "Profile");
    const blank = await engram.profile(" ");
    assert.equal(blank.__typename, "InvalidInput");

    const propositions = [];
    for await (const memory of engram.memories({ user, kinds: ["PROPOSITION"] })) propositions.push(memory);
    assert.ok(propositions.length > 0);
    const old = propositions[0]!;
    const page = await engram.memory(old.id, { user });
    assert.equal(page?.__typename, "Proposition");
    const proofs = await engram.follow(old.id, "PROVEN_BY", { user });
    assert.equal(proofs.__typename, "Links");

    const corrected = await engram.correct(old.id, "I keep my blue bike in the garage.", { user });
    assert.equal(corrected.__typename, "Corrected");
    if (corrected.__typename !== "Corrected") return;
    const history = await engram.history(corrected.propositionId, { user });
    assert.equal(history.__typename, "History");
    if (history.__typename === "History") {
      assert.deepEqual(history.replaced.map((step) => step.propositionId), [old.id]);
    }
    const missing = await engram.correct("no-such-id", "x", { user });
    assert.equal(missing.__typename, "NotFound");

    const associated = await engram.associate("my bike again", { user });
    assert.equal(associated.__typename, "Associations");

    let exported = "";
    for await (const part of engram.export({ user })) exported += part.jsonl;
    assert.match(exported, /garden shed/);

    const gone = await engram.forget({ user });
    assert.equal(gone.__typename, "Forgotten");
    const after = [];
    for await (const name of engram.users()) after.push(name);
    assert.ok(!after.includes(user));

    const wrong = await new Engram({ url: url!, apiKey: "egk_not_a_key" }).stats().catch((e: unknown) => e);
    assert.ok(wrong instanceof HttpError && wrong.status === 401, String(wrong));
  } finally {
    await engram.close();
  }
});
