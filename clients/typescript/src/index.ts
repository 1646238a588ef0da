// The facade over the generated operations: `new Engram({ url, apiKey })`. Every result type comes from
// src/generated/graphql.ts (GraphQL Code Generator over graphql/schema.graphql and graphql/operations/); union
// results keep their `__typename`, so a caller can `switch` on InvalidInput, OverBudget, NotFound...
import { type Client as SocketClient, createClient } from "graphql-ws";
import { GraphQLResponseError, SocketError } from "./errors.js";
import * as gql from "./generated/graphql.js";
import { type Fetch, HttpTransport } from "./transport.js";

export * from "./errors.js";
export type * from "./generated/graphql.js";
export {
  AssociateDocument,
  CorrectDocument,
  ExportDocument,
  FollowDocument,
  ForgetDocument,
  HistoryDocument,
  IngestDocument,
  JobDocument,
  JobProgressDocument,
  MemoriesDocument,
  MemoryDocument,
  ProfileDocument,
  RecallDocument,
  RememberDocument,
  SourcesDocument,
  StatsDocument,
  UsersDocument,
  TypedDocumentString,
} from "./generated/graphql.js";

export interface EngramOptions {
  /** The API's origin (`http://127.0.0.1:8000`) or its GraphQL endpoint (`.../graphql`). */
  url: string;
  /** The space's key, `egk_...`. */
  apiKey: string;
  /** Another `fetch` (a test's, or one with a proxy); default: the global one. */
  fetch?: Fetch;
  /** A WebSocket class for the job progress subscription where there is no global one (Node 20: the `ws` package). */
  webSocketImpl?: unknown;
}

type Vars<D> = D extends gql.TypedDocumentString<unknown, infer V> ? V : never;
/** The variables of an operation less the ones a method takes positionally. */
type Options<D, K extends string = never> = Omit<Vars<D>, K>;

export type RememberResult = gql.RememberMutation["remember"];
export type IngestResult = gql.IngestMutation["ingest"];
export type RecallResult = gql.RecallQuery["recall"];
export type AssociateResult = gql.AssociateQuery["associate"];
export type ForgetResult = gql.ForgetMutation["forget"];
export type CorrectResult = gql.CorrectMutation["correct"];
export type FollowResult = gql.FollowQuery["follow"];
export type HistoryResult = gql.HistoryQuery["history"];
export type MemoryNode = gql.MemoryQuery["node"];
export type JobResult = gql.JobQuery["job"];
export type JobProgress = gql.JobProgressSubscription["jobProgress"];
export type ExportPage = gql.ExportQuery["export"];
export type MemoryItem = gql.MemoriesQuery["memories"]["edges"][number]["node"];
export type SourceItem = gql.SourcesQuery["sources"]["edges"][number]["node"];
export type Stats = gql.StatsQuery["stats"];
export type ProfileResult = gql.ProfileQuery["profile"];
/** One slot of a profile: its current fact (null for an ended state), other current values and earlier versions. */
export type ProfileSlot = Extract<ProfileResult, { __typename: "Profile" }>["subjects"][number]["slots"][number];
export type ProfileFact = gql.ProfileFactFieldsFragment;

interface Connection<N> {
  totalCount: number | null;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: ReadonlyArray<{ node: N }>;
}

/** Walks a connection page by page, yielding its nodes. */
async function* pages<N>(fetchPage: (after: string | null) => Promise<Connection<N>>): AsyncGenerator<N> {
  let after: string | null = null;
  for (;;) {
    const page: Connection<N> = await fetchPage(after);
    for (const edge of page.edges) yield edge.node;
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return;
    after = page.pageInfo.endCursor;
  }
}

function endpointOf(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return trimmed.endsWith("/graphql") ? trimmed : `${trimmed}/graphql`;
}

export class Engram {
  private readonly http: HttpTransport;
  private readonly endpoint: string;
  private socket: SocketClient | undefined;

  constructor(private readonly options: EngramOptions) {
    this.endpoint = endpointOf(options.url);
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.http = new HttpTransport(this.endpoint, { authorization: `Bearer ${options.apiKey}` }, fetchImpl);
  }

  /** Any operation of graphql/operations/ (its generated `...Document`), typed end to end. */
  request<R, V>(document: gql.TypedDocumentString<R, V>, variables: V): Promise<R> {
    return this.http.request(document, variables);
  }

  async remember(text: string, options: Options<typeof gql.RememberDocument, "text"> = {}): Promise<RememberResult> {
    return (await this.request(gql.RememberDocument, { ...options, text })).remember;
  }

  /** Records (conversations, documents, trajectories) in the ingest format, validated whole, then queued. */
  async ingest(records: unknown): Promise<IngestResult> {
    return (await this.request(gql.IngestDocument, { records })).ingest;
  }

  async recall(query: string, options: Options<typeof gql.RecallDocument, "query"> = {}): Promise<RecallResult> {
    return (await this.request(gql.RecallDocument, { ...options, query })).recall;
  }

  async associate(
    utterance: string,
    options: Options<typeof gql.AssociateDocument, "utterance"> = {},
  ): Promise<AssociateResult> {
    return (await this.request(gql.AssociateDocument, { ...options, utterance })).associate;
  }

  /** Episodes, sources or knowledge by id, or what matches agent/session/metadata; `{ user }` alone: that user's all. */
  async forget(what: Vars<typeof gql.ForgetDocument>): Promise<ForgetResult> {
    return (await this.request(gql.ForgetDocument, what)).forget;
  }

  async correct(
    propositionId: string,
    text: string,
    options: Options<typeof gql.CorrectDocument, "propositionId" | "text"> = {},
  ): Promise<CorrectResult> {
    return (await this.request(gql.CorrectDocument, { ...options, propositionId, text })).correct;
  }

  async follow(nodeId: string, linkType: gql.LinkType, options: { user?: string | null } = {}): Promise<FollowResult> {
    return (await this.request(gql.FollowDocument, { ...options, nodeId, linkType })).follow;
  }

  async history(propositionId: string, options: { user?: string | null } = {}): Promise<HistoryResult> {
    return (await this.request(gql.HistoryDocument, { ...options, propositionId })).history;
  }

  /** One memory's page (a proposition, a prescription or an episode), or null when the id is not in the space. */
  async memory(id: string, options: { user?: string | null } = {}): Promise<MemoryNode> {
    return (await this.request(gql.MemoryDocument, { ...options, id })).node;
  }

  /** A user's profile: each subject's slots (the user's own first), the fact that holds now and what it replaced;
   * `subject` narrows it to one subject. An unknown user's is empty. */
  async profile(user: string, options: Options<typeof gql.ProfileDocument, "user"> = {}): Promise<ProfileResult> {
    return (await this.request(gql.ProfileDocument, { ...options, user })).profile;
  }

  async job(id: string): Promise<JobResult> {
    return (await this.request(gql.JobDocument, { id })).job;
  }

  async stats(options: { user?: string | null } = {}): Promise<Stats> {
    return (await this.request(gql.StatsDocument, options)).stats;
  }

  /** The memory (or what matches agent, session and metadata) as pages of JSONL in the ingest format. */
  async *export(options: Options<typeof gql.ExportDocument, "after"> = {}): AsyncGenerator<ExportPage> {
    let after: string | null = null;
    do {
      const page: ExportPage = (await this.request(gql.ExportDocument, { ...options, after })).export;
      yield page;
      after = page.endCursor;
    } while (after);
  }

  /** One page of memories (the inspector's list); `memories()` walks them all. */
  async memoriesPage(options: Options<typeof gql.MemoriesDocument> = {}): Promise<gql.MemoriesQuery["memories"]> {
    return (await this.request(gql.MemoriesDocument, options)).memories;
  }

  memories(options: Options<typeof gql.MemoriesDocument, "after"> = {}): AsyncGenerator<MemoryItem> {
    return pages((after) => this.memoriesPage({ ...options, after }));
  }

  sources(options: Options<typeof gql.SourcesDocument, "after"> = {}): AsyncGenerator<SourceItem> {
    return pages(async (after) => (await this.request(gql.SourcesDocument, { ...options, after })).sources);
  }

  /** The space's users who have a memory of their own. */
  async *users(): AsyncGenerator<string> {
    for (const { user } of (await this.request(gql.UsersDocument, {})).users) yield user;
  }

  /** An ingest job's progress over graphql-transport-ws, until it finishes. */
  async *jobProgress(id: string): AsyncGenerator<JobProgress> {
    const events = this.sockets().iterate<gql.JobProgressSubscription>({
      query: gql.JobProgressDocument.toString(),
      variables: { id },
    });
    try {
      for await (const event of events) {
        if (event.errors?.length) {
          throw new GraphQLResponseError(event.errors.map((e) => ({ message: e.message, path: e.path })));
        }
        if (event.data) yield event.data.jobProgress;
      }
    } catch (error) {
      throw socketFailure(error);
    }
  }

  /** Closes the subscription socket, if one is open. */
  async close(): Promise<void> {
    await this.socket?.dispose();
    this.socket = undefined;
  }

  private sockets(): SocketClient {
    this.socket ??= createClient({
      url: this.endpoint.replace(/^http/, "ws"),
      connectionParams: { apiKey: this.options.apiKey },
      retryAttempts: 0,
      ...(this.options.webSocketImpl ? { webSocketImpl: this.options.webSocketImpl } : {}),
    });
    return this.socket;
  }
}

function socketFailure(error: unknown): unknown {
  if (error instanceof Error) return error;
  if (Array.isArray(error)) {
    return new GraphQLResponseError(error.map((e: { message?: string }) => ({ message: e.message ?? String(e) })));
  }
  const closed = error as { code?: number; reason?: string };
  if (typeof closed?.code === "number") return new SocketError(closed.code, closed.reason ?? "");
  return new SocketError(0, String(error));
}
