// Unit tests of the facade and its transport against a small in-process HTTP server that answers as the API does.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Engram, GraphQLResponseError, HttpError, NetworkError, SchemaMismatchError } from "../src/index.js";

interface Seen {
  authorization: string | undefined;
  body: { query: string; variables: Record<string, unknown> };
}

type Answer = (seen: Seen) => { status?: number; body: unknown };

let server: Server;
let url: string;
let answer: Answer = () => ({ body: { data: {} } });
const seen: Seen[] = [];

async function read(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

before(async () => {
  server = createServer(async (request, response) => {
    const entry: Seen = { authorization: request.headers.authorization, body: JSON.parse(await read(request)) };
    seen.push(entry);
    const { status = 200, body } = answer(entry);
    response.writeHead(status, { "content-type": "application/json" });
    response.end(typeof body === "string" ? body : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => server.close());

describe("the transport", () => {
  test("sends the key as a bearer token and the generated operation to /graphql", async () => {
    answer = () => ({ body: { data: { users: [{ __typename: "User", user: "ana" }] } } });
    const users: string[] = [];
    for await (const user of new Engram({ url, apiKey: "egk_test" }).users()) users.push(user);
    assert.deepEqual(users, ["ana"]);
    const last = seen.at(-1)!;
    assert.equal(last.authorization, "Bearer egk_test");
    assert.match(last.body.query, /query Users/);
  });

  test("an HTTP error is thrown with its status, the server's message and code", async () => {
    answer = () => ({
      status: 401,
      body: { errors: [{ message: "unknown API key", extensions: { code: "UNAUTHENTICATED" } }] },
    });
    const error = await new Engram({ url, apiKey: "egk_wrong" }).stats().catch((e: unknown) => e);
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 401);
    assert.equal(error.code, "UNAUTHENTICATED");
    assert.match(error.message, /unknown API key/);
  });

  test("a non-JSON error page still gives the status and its text", async () => {
    answer = () => ({ status: 502, body: "Bad Gateway from the proxy" });
    const error = await new Engram({ url, apiKey: "k" }).stats().catch((e: unknown) => e);
    assert.ok(error instanceof HttpError && error.status === 502 && /proxy/.test(error.message));
  });

  test("no server is a NetworkError, not undefined", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await new Engram({ url: `http://127.0.0.1:${port}`, apiKey: "k" }).stats().catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError, String(error));
  });

  test("an operation the server's schema refuses (errors, no data) is a SchemaMismatchError", async () => {
    answer = () => ({ body: { errors: [{ message: "Cannot query field 'gone' on type 'Query'." }] } });
    const error = await new Engram({ url, apiKey: "k" }).stats().catch((e: unknown) => e);
    assert.ok(error instanceof SchemaMismatchError);
    assert.equal(error.kind, "schema-mismatch");
  });

  test("an execution error (data null, errors) is a GraphQLResponseError with its code", async () => {
    answer = () => ({
      body: { data: null, errors: [{ message: "slow down", extensions: { code: "RATE_LIMITED", retryAfter: 2 } }] },
    });
    const error = await new Engram({ url, apiKey: "k" }).stats().catch((e: unknown) => e);
    assert.ok(error instanceof GraphQLResponseError && !(error instanceof SchemaMismatchError));
    assert.equal(error.code, "RATE_LIMITED");
  });
});

describe("the facade", () => {
  test("a union member comes back typed, for a switch on __typename", async () => {
    answer = () => ({
      body: { data: { recall: { __typename: "InvalidInput", message: "limit must be positive", problems: ["limit"] } } },
    });
    const result = await new Engram({ url, apiKey: "k" }).recall("anything", { limit: -1 });
    switch (result.__typename) {
      case "InvalidInput":
        assert.equal(result.message, "limit must be positive");
        break;
      default:
        assert.fail(`unexpected ${result.__typename}`);
    }
    assert.deepEqual(seen.at(-1)!.body.variables, { limit: -1, query: "anything" });
  });

  test("memories() walks the pages with their cursors", async () => {
    const node = (id: string) => ({
      __typename: "Memory", id, kind: "PROPOSITION", text: id, status: "active", at: null, validTo: null, origins: [],
    });
    answer = ({ body }) => {
      const first = body.variables.after == null;
      return {
        body: {
          data: {
            memories: {
              __typename: "MemoryConnection",
              totalCount: 3,
              pageInfo: { __typename: "PageInfo", hasNextPage: first, endCursor: first ? "c2" : null },
              edges: (first ? ["m1", "m2"] : ["m3"]).map((id) => ({ __typename: "MemoryEdge", node: node(id) })),
            },
          },
        },
      };
    };
    const ids: string[] = [];
    for await (const memory of new Engram({ url, apiKey: "k" }).memories({ user: "ana", first: 2 })) ids.push(memory.id);
    assert.deepEqual(ids, ["m1", "m2", "m3"]);
    assert.deepEqual(
      seen.slice(-2).map((s) => s.body.variables),
      [
        { user: "ana", first: 2, after: null },
        { user: "ana", first: 2, after: "c2" },
      ],
    );
  });

  test("profile() sends the user and the subject and answers the profile's slots", async () => {
    const fact = {
      __typename: "ProfileFact", propositionId: "p2", text: "lena moved to Graz.", predicate: "move to", value: "Graz",
      valueType: "GPE", polarity: true, status: "active", validFrom: "2025-08-01T00:00:00+00:00", validTo: null,
      supersededBy: null, reason: null, provenance: [],
    };
    answer = () => ({
      body: {
        data: {
          profile: {
            __typename: "Profile", user: "lena", truncated: false,
            subjects: [{ __typename: "ProfileSubject", subject: "lena", facts: 1, slots: [
              { __typename: "ProfileSlot", subject: "lena", slot: "home", current: fact, alsoCurrent: [], history: [] },
            ] }],
          },
        },
      },
    });
    const profile = await new Engram({ url, apiKey: "k" }).profile("lena", { subject: "Lena" });
    assert.equal(profile.__typename, "Profile");
    if (profile.__typename === "Profile") assert.equal(profile.subjects[0]?.slots[0]?.current?.value, "Graz");
    assert.deepEqual(seen.at(-1)!.body.variables, { subject: "Lena", user: "lena" });
    assert.match(seen.at(-1)!.body.query, /query Profile[\s\S]*fragment ProfileFactFields/);
  });

  test("export() yields pages until the cursor ends", async () => {
    answer = ({ body }) => ({
      body: {
        data: {
          export: {
            __typename: "ExportPage", jsonl: body.variables.after ? "b\n" : "a\n", records: 1, sources: 1,
            totalSources: 2, endCursor: body.variables.after ? null : "next",
          },
        },
      },
    });
    let text = "";
    for await (const page of new Engram({ url, apiKey: "k" }).export({ user: "ana" })) text += page.jsonl;
    assert.equal(text, "a\nb\n");
  });
});

test("the built package imports nothing Node-only, so a browser bundle can take it", () => {
  const dist = join(import.meta.dirname, "..", "..", "dist");
  const files = readdirSync(dist, { recursive: true }).map(String).filter((f) => f.endsWith(".js"));
  assert.ok(files.includes("index.js"), "npm run build first");
  for (const file of files) {
    const source = readFileSync(join(dist, file), "utf8");
    const imports = [...source.matchAll(/from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)].map(
      (m) => m[1] ?? m[2],
    );
    for (const name of imports) {
      assert.ok(name === "graphql-ws" || name!.startsWith("./"), `${file} imports ${name}`);
    }
  }
});
