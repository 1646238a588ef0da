// GraphQL over HTTP with `fetch` (Node >= 20 and browsers have it): typed documents in, typed data out, failures as
// the classes of errors.ts.
import type { TypedDocumentString } from "./generated/graphql.js";
import { type GraphQLErrorEntry, GraphQLResponseError, HttpError, NetworkError, SchemaMismatchError } from "./errors.js";

export type Fetch = typeof fetch;

interface GraphQLBody {
  data?: unknown;
  errors?: GraphQLErrorEntry[];
}

export class HttpTransport {
  constructor(
    private readonly endpoint: string,
    private readonly headers: Record<string, string>,
    private readonly fetchImpl: Fetch,
  ) {}

  async request<R, V>(document: TypedDocumentString<R, V>, variables: V): Promise<R> {
    let response: Response;
    try {
      response = await this.fetchImpl(this.endpoint, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...this.headers },
        body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
      });
    } catch (cause) {
      throw new NetworkError(`cannot reach ${this.endpoint}: ${String((cause as Error)?.message ?? cause)}`, { cause });
    }
    const text = await response.text().catch((cause: unknown) => {
      throw new NetworkError(`the answer from ${this.endpoint} broke off`, { cause });
    });
    let body: GraphQLBody | undefined;
    try {
      body = JSON.parse(text) as GraphQLBody;
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const first = body?.errors?.[0];
      const message = first?.message ?? (text.trim().slice(0, 300) || response.statusText);
      throw new HttpError(response.status, message, first?.extensions?.code);
    }
    if (body === undefined || typeof body !== "object" || body === null) {
      throw new NetworkError(`the answer from ${this.endpoint} is not GraphQL JSON: ${text.slice(0, 200)}`);
    }
    if (body.errors?.length) {
      // No `data` at all: refused before execution (parse or validation), i.e. this operation is not the server's.
      throw "data" in body ? new GraphQLResponseError(body.errors) : new SchemaMismatchError(body.errors);
    }
    if (body.data === undefined || body.data === null) {
      throw new NetworkError(`the answer from ${this.endpoint} has neither data nor errors`);
    }
    return body.data as R;
  }
}
