// Failures that are not part of an operation's result union, each a class a caller can tell apart with `instanceof`
// (or `kind`): the union members (InvalidInput, OverBudget, NotFound, ...) come back as results, never thrown.

/** One entry of a GraphQL response's `errors`. */
export interface GraphQLErrorEntry {
  message: string;
  path?: ReadonlyArray<string | number>;
  extensions?: { code?: string; [key: string]: unknown };
}

export type EngramErrorKind = "http" | "network" | "graphql" | "schema-mismatch" | "socket";

export abstract class EngramError extends Error {
  abstract readonly kind: EngramErrorKind;
}

/** The server answered with an HTTP error status (401 wrong or revoked key, 413 too large, 429, 503...). */
export class HttpError extends EngramError {
  readonly kind = "http";
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
  ) {
    super(`HTTP ${status}: ${message}`);
    this.name = "HttpError";
  }
}

/** No answer: the server is down or unreachable, or the answer was not JSON. */
export class NetworkError extends EngramError {
  readonly kind = "network";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "NetworkError";
  }
}

/** The operation ran and failed with errors outside its result union (e.g. UNAUTHENTICATED, RATE_LIMITED). */
export class GraphQLResponseError extends EngramError {
  readonly kind: EngramErrorKind = "graphql";
  readonly code: string | undefined;
  constructor(readonly errors: readonly GraphQLErrorEntry[]) {
    super(errors.map((e) => e.message).join("; ") || "GraphQL error");
    this.name = "GraphQLResponseError";
    this.code = errors.find((e) => e.extensions?.code)?.extensions?.code;
  }
}

/**
 * The server refused the operation before running it (a response with `errors` and no `data`, as the GraphQL spec
 * answers a document that does not validate): this client's operations do not match the server's schema.
 */
export class SchemaMismatchError extends GraphQLResponseError {
  override readonly kind = "schema-mismatch";
  constructor(errors: readonly GraphQLErrorEntry[]) {
    super(errors);
    this.name = "SchemaMismatchError";
  }
}

/** The subscription's socket closed with an error (4401 no key, 4403 wrong or revoked key, 4429 too many...). */
export class SocketError extends EngramError {
  readonly kind = "socket";
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`socket closed ${code}: ${reason || "no reason given"}`);
    this.name = "SocketError";
  }
}
