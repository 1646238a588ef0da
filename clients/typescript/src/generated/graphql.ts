/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** READER reads; WRITER also writes memory; OWNER also revokes other keys */
export type ApiKeyRole =
  | 'OWNER'
  | 'READER'
  | 'WRITER';

export type JobState =
  | 'FAILED'
  | 'QUEUED'
  | 'RUNNING'
  | 'SUCCEEDED';

/** superseded facts stay for asOf queries */
export type KnowledgeStatus =
  | 'ACTIVE'
  | 'SUPERSEDED';

export type LinkType =
  | 'ASSOCIATED'
  | 'CAUSED_BY'
  | 'CONTRASTS_WITH'
  | 'IN'
  | 'MENTIONS'
  | 'NEXT'
  | 'PART_OF'
  | 'PROVEN_BY'
  | 'RELATED_TO'
  | 'SAME_AS'
  | 'SOLVES'
  | 'SUPERSEDES';

/** The kinds of memory `memories` lists. */
export type MemoryKind =
  | 'EPISODE'
  | 'PRESCRIPTION'
  | 'PROPOSITION';

/** episodic: what happened; semantic: facts; procedural: how */
export type MemoryType =
  | 'EPISODIC'
  | 'PROCEDURAL'
  | 'SEMANTIC';

/** concept: a concept the utterance mentions; time: the same weekday or time of day; emotion: the feeling it voices; habit: said together with a memory surfaced above; two_hops: through the concept association graph; wording: similar wording */
export type PathKind =
  | 'CONCEPT'
  | 'EMOTION'
  | 'HABIT'
  | 'TIME'
  | 'TWO_HOPS'
  | 'WORDING';

export type CreateApiKeyMutationVariables = Exact<{
  label: string;
  role?: ApiKeyRole | null | undefined;
}>;


export type CreateApiKeyMutation = { __typename: 'Mutation', createApiKey: { __typename: 'IssuedApiKey', secret: string, key: { __typename: 'ApiKey', id: string, label: string, role: ApiKeyRole, mintedBy: string | null, createdAt: string } } };

export type ApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ApiKeysQuery = { __typename: 'Query', apiKeys: Array<{ __typename: 'ApiKey', id: string, label: string, role: ApiKeyRole, mintedBy: string | null, createdAt: string, revokedAt: string | null }> };

export type RevokeApiKeyMutationVariables = Exact<{
  id: string;
}>;


export type RevokeApiKeyMutation = { __typename: 'Mutation', revokeApiKey:
    | { __typename: 'ApiKey', id: string, revokedAt: string | null }
    | { __typename: 'NotFound', message: string }
   };

export type AssociateQueryVariables = Exact<{
  utterance: string;
  now?: string | null | undefined;
  limit?: number | null | undefined;
  speaker?: string | null | undefined;
  user?: string | null | undefined;
  agent?: string | null | undefined;
  session?: string | null | undefined;
  metadata?: unknown;
}>;


export type AssociateQuery = { __typename: 'Query', associate:
    | { __typename: 'Associations', utterance: string, reason: string | null, associations: Array<{ __typename: 'AssociatedMemory', item: { __typename: 'RecallHit', id: string, kind: string, text: string, score: number, components: unknown, foundBy: Array<string>, validFrom: string | null, provenance: Array<{ __typename: 'ProvenanceEpisode', episodeId: string, sourceId: string, externalId: string, speaker: string, text: string, occurredAt: string | null }> }, why: Array<{ __typename: 'AssociatePath', kind: PathKind, detail: string, concepts: Array<string> }> }>, trace: Array<{ __typename: 'RecallTraceStep', step: string, ms: number, detail: unknown }> }
    | { __typename: 'InvalidInput', message: string, problems: Array<string> }
    | { __typename: 'OverBudget', message: string, limit: number, requested: number }
   };

export type ConceptPageQueryVariables = Exact<{
  key: string;
  first?: number | null | undefined;
  after?: string | null | undefined;
  user?: string | null | undefined;
}>;


export type ConceptPageQuery = { __typename: 'Query', concept:
    | { __typename: 'ConceptPage', aliases: Array<string>, concept: { __typename: 'Concept', id: string, key: string, name: string, df: number, importance: number }, dimension: { __typename: 'Dimension', id: string, label: string } | null, associated: Array<{ __typename: 'Association', key: string, weight: number }>, propositions: { __typename: 'PropositionConnection', totalCount: number | null, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'PropositionEdge', cursor: string, node: { __typename: 'Proposition', id: string, text: string, validFrom: string | null, provenance: Array<{ __typename: 'Episode', externalId: string, text: string }> } }> } }
    | { __typename: 'NotFound', message: string }
   };

export type CorrectMutationVariables = Exact<{
  propositionId: string;
  text: string;
  validFrom?: string | null | undefined;
  reason?: string | null | undefined;
  user?: string | null | undefined;
}>;


export type CorrectMutation = { __typename: 'Mutation', correct:
    | { __typename: 'Corrected', created: boolean, propositionId: string, supersedesId: string, proposition: { __typename: 'Proposition', id: string, text: string, status: KnowledgeStatus, provenance: Array<{ __typename: 'Episode', externalId: string }> } | null, supersedes: { __typename: 'Proposition', id: string, status: KnowledgeStatus } | null }
    | { __typename: 'InvalidInput', message: string }
    | { __typename: 'NotFound', message: string }
   };

export type CreateSpaceMutationVariables = Exact<{
  name: string;
}>;


export type CreateSpaceMutation = { __typename: 'Mutation', createSpace:
    | { __typename: 'InvalidInput', message: string }
    | { __typename: 'SpaceCreated', space: string, key: { __typename: 'IssuedApiKey', secret: string, key: { __typename: 'ApiKey', id: string, label: string, createdAt: string } } }
    | { __typename: 'SpaceExists', space: string, message: string }
   };

export type DeleteSpaceMutationVariables = Exact<{
  name: string;
}>;


export type DeleteSpaceMutation = { __typename: 'Mutation', deleteSpace:
    | { __typename: 'NotFound', message: string }
    | { __typename: 'SpaceDeleted', space: string, users: number, episodesRemoved: number, knowledgeRemoved: number, stoppedJobIds: Array<string> }
   };

export type DimensionsQueryVariables = Exact<{
  user?: string | null | undefined;
}>;


export type DimensionsQuery = { __typename: 'Query', dimensions: { __typename: 'DimensionPageConnection', totalCount: number | null, edges: Array<{ __typename: 'DimensionPageEdge', node: { __typename: 'DimensionPage', conceptCount: number, dimension: { __typename: 'Dimension', id: string, label: string }, concepts: { __typename: 'ConceptCardConnection', edges: Array<{ __typename: 'ConceptCardEdge', node: { __typename: 'ConceptCard', summary: Array<string>, concept: { __typename: 'Concept', key: string } } }> } } }> } };

export type ExportQueryVariables = Exact<{
  user?: string | null | undefined;
  agent?: string | null | undefined;
  session?: string | null | undefined;
  metadata?: unknown;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ExportQuery = { __typename: 'Query', export: { __typename: 'ExportPage', jsonl: string, records: number, sources: number, totalSources: number, endCursor: string | null } };

export type ExportVectorsQueryVariables = Exact<{
  user?: string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ExportVectorsQuery = { __typename: 'Query', exportVectors: { __typename: 'VectorExportPage', jsonl: string, nodes: number, totalNodes: number, endCursor: string | null } };

export type FollowQueryVariables = Exact<{
  nodeId: string;
  linkType: LinkType;
  user?: string | null | undefined;
}>;


export type FollowQuery = { __typename: 'Query', follow:
    | { __typename: 'Links', links: Array<{ __typename: 'Link', type: LinkType, outgoing: boolean, properties: unknown, node:
          | { __typename: 'Concept', key: string, id: string }
          | { __typename: 'Dimension', id: string }
          | { __typename: 'Episode', speaker: string, text: string, id: string }
          | { __typename: 'Intent', text: string, id: string }
          | { __typename: 'Prescription', text: string, id: string }
          | { __typename: 'Proposition', text: string, id: string }
          | { __typename: 'Source', title: string, id: string }
         }> }
    | { __typename: 'NotFound', message: string }
   };

export type ForgetMutationVariables = Exact<{
  episodeIds?: Array<string> | string | null | undefined;
  sourceIds?: Array<string> | string | null | undefined;
  knowledgeIds?: Array<string> | string | null | undefined;
  agent?: string | null | undefined;
  session?: string | null | undefined;
  metadata?: unknown;
  user?: string | null | undefined;
}>;


export type ForgetMutation = { __typename: 'Mutation', forget:
    | { __typename: 'Forgotten', episodeIds: Array<string>, knowledgeIds: Array<string>, sourceIds: Array<string>, intentIds: Array<string>, conceptsRemoved: number, notFound: Array<string>, episodesRemoved: number | null, knowledgeRemoved: number | null, stoppedJobIds: Array<string> }
    | { __typename: 'InvalidInput', message: string, problems: Array<string> }
    | { __typename: 'OverBudget', message: string }
   };

export type HistoryQueryVariables = Exact<{
  propositionId: string;
  user?: string | null | undefined;
}>;


export type HistoryQuery = { __typename: 'Query', history:
    | { __typename: 'History', propositionId: string, status: string, currentId: string | null, replaced: Array<{ __typename: 'HistoryStep', propositionId: string, text: string, status: string, reason: string, replacedBy: string, validFrom: string | null, validTo: string | null, expiredAt: string | null, fact: { __typename: 'Fact', subject: string, attribute: string, value: string, valueType: string | null, aspect: string | null, polarity: boolean, ends: Array<string> } | null }> }
    | { __typename: 'NotFound', message: string, id: string }
   };

export type IngestMutationVariables = Exact<{
  records: unknown;
}>;


export type IngestMutation = { __typename: 'Mutation', ingest:
    | { __typename: 'InvalidInput', message: string, problems: Array<string> }
    | { __typename: 'Job', id: string, state: JobState, sources: Array<{ __typename: 'WrittenSource', id: string, externalId: string, kind: string, episodes: Array<{ __typename: 'WrittenEpisode', id: string, externalId: string }> }> }
    | { __typename: 'OverBudget', message: string, limit: number, requested: number }
   };

export type JobQueryVariables = Exact<{
  id: string;
}>;


export type JobQuery = { __typename: 'Query', job:
    | { __typename: 'Job', id: string, state: JobState, stage: string, done: number, total: number, fraction: number, stagesDone: Array<string>, stageSeconds: unknown, counts: unknown, error: string, createdAt: string, finishedAt: string }
    | { __typename: 'NotFound', message: string }
   };

export type JobProgressSubscriptionVariables = Exact<{
  id: string;
}>;


export type JobProgressSubscription = { __typename: 'Subscription', jobProgress: { __typename: 'Job', id: string, state: JobState, stage: string, fraction: number, counts: unknown } };

export type MemoriesQueryVariables = Exact<{
  user?: string | null | undefined;
  kinds?: Array<MemoryKind> | MemoryKind | null | undefined;
  agent?: string | null | undefined;
  session?: string | null | undefined;
  metadata?: unknown;
  since?: string | null | undefined;
  until?: string | null | undefined;
  includeSuperseded?: boolean | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type MemoriesQuery = { __typename: 'Query', memories: { __typename: 'MemoryConnection', totalCount: number | null, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'MemoryEdge', node: { __typename: 'Memory', id: string, kind: MemoryKind, text: string, status: string, at: string | null, validTo: string | null, origins: Array<{ __typename: 'MemoryOrigin', episodeId: string, episodeExternalId: string, sourceId: string | null, sourceExternalId: string | null }>, fact: { __typename: 'Fact', subject: string, attribute: string, value: string, valueType: string | null, aspect: string | null, polarity: boolean, ends: Array<string> } | null } }> } };

export type MemoryQueryVariables = Exact<{
  id: string;
  user?: string | null | undefined;
}>;


export type MemoryQuery = { __typename: 'Query', node:
    | { __typename: 'Concept', id: string }
    | { __typename: 'Dimension', id: string }
    | { __typename: 'Episode', externalId: string, speaker: string, text: string, occurredAt: string | null, id: string, source: { __typename: 'Source', id: string, externalId: string, kind: string, title: string } | null, knowledge: Array<
        | { __typename: 'Prescription', id: string, text: string }
        | { __typename: 'Proposition', id: string, text: string, status: KnowledgeStatus }
      > }
    | { __typename: 'Intent', id: string }
    | { __typename: 'Prescription', text: string, steps: Array<string>, id: string, provenance: Array<{ __typename: 'Episode', id: string, externalId: string, speaker: string, text: string, occurredAt: string | null, source: { __typename: 'Source', id: string, externalId: string, kind: string, title: string } | null }> }
    | { __typename: 'Proposition', text: string, status: KnowledgeStatus, subject: string, validFrom: string | null, validTo: string | null, recordedAt: string | null, expiredAt: string | null, confidence: number, supersededBy: string | null, id: string, fact: { __typename: 'Fact', subject: string, attribute: string, value: string, valueType: string | null, aspect: string | null, polarity: boolean, ends: Array<string> } | null, concepts: Array<{ __typename: 'Concept', key: string }>, provenance: Array<{ __typename: 'Episode', id: string, externalId: string, speaker: string, text: string, occurredAt: string | null, source: { __typename: 'Source', id: string, externalId: string, kind: string, title: string } | null }> }
    | { __typename: 'Source', id: string }
   | null };

export type ProfileQueryVariables = Exact<{
  user: string;
  subject?: string | null | undefined;
}>;


export type ProfileQuery = { __typename: 'Query', profile:
    | { __typename: 'InvalidInput', message: string, problems: Array<string> }
    | { __typename: 'Profile', user: string, truncated: boolean, subjects: Array<{ __typename: 'ProfileSubject', subject: string, facts: number, slots: Array<{ __typename: 'ProfileSlot', subject: string, slot: string, current: { __typename: 'ProfileFact', propositionId: string, text: string, predicate: string, value: string, valueType: string, polarity: boolean, status: string, validFrom: string | null, validTo: string | null, supersededBy: string | null, reason: string | null, provenance: Array<{ __typename: 'ProvenanceEpisode', episodeId: string, externalId: string, sourceId: string, speaker: string, text: string, occurredAt: string | null }> } | null, alsoCurrent: Array<{ __typename: 'ProfileFact', propositionId: string, text: string, predicate: string, value: string, valueType: string, polarity: boolean, status: string, validFrom: string | null, validTo: string | null, supersededBy: string | null, reason: string | null, provenance: Array<{ __typename: 'ProvenanceEpisode', episodeId: string, externalId: string, sourceId: string, speaker: string, text: string, occurredAt: string | null }> }>, history: Array<{ __typename: 'ProfileFact', propositionId: string, text: string, predicate: string, value: string, valueType: string, polarity: boolean, status: string, validFrom: string | null, validTo: string | null, supersededBy: string | null, reason: string | null, provenance: Array<{ __typename: 'ProvenanceEpisode', episodeId: string, externalId: string, sourceId: string, speaker: string, text: string, occurredAt: string | null }> }> }> }> }
   };

export type ProfileFactFieldsFragment = { __typename: 'ProfileFact', propositionId: string, text: string, predicate: string, value: string, valueType: string, polarity: boolean, status: string, validFrom: string | null, validTo: string | null, supersededBy: string | null, reason: string | null, provenance: Array<{ __typename: 'ProvenanceEpisode', episodeId: string, externalId: string, sourceId: string, speaker: string, text: string, occurredAt: string | null }> };

export type RecallQueryVariables = Exact<{
  query: string;
  tokenBudget?: number | null | undefined;
  asOf?: string | null | undefined;
  knownAt?: string | null | undefined;
  memoryTypes?: Array<MemoryType> | MemoryType | null | undefined;
  limit?: number | null | undefined;
  hopLimit?: number | null | undefined;
  asker?: string | null | undefined;
  addressee?: string | null | undefined;
  now?: string | null | undefined;
  minRelevance?: number | null | undefined;
  user?: string | null | undefined;
  agent?: string | null | undefined;
  session?: string | null | undefined;
  metadata?: unknown;
  recipe?: string | null | undefined;
}>;


export type RecallQuery = { __typename: 'Query', recall:
    | { __typename: 'InvalidInput', message: string }
    | { __typename: 'OverBudget', message: string }
    | { __typename: 'Recall', memoryTypes: Array<MemoryType>, tokens: number, hops: number, cypher: string, reason: string | null, items: Array<{ __typename: 'RecallHit', id: string, kind: string, text: string, score: number, components: unknown, tokens: number, foundBy: Array<string>, relevance: number | null, validFrom: string | null, supersededBy: string | null, validTo: string | null, provenance: Array<{ __typename: 'ProvenanceEpisode', episodeId: string, sourceId: string, externalId: string, speaker: string, text: string, occurredAt: string | null }>, node:
          | { __typename: 'Concept' }
          | { __typename: 'Dimension' }
          | { __typename: 'Episode' }
          | { __typename: 'Intent' }
          | { __typename: 'Prescription' }
          | { __typename: 'Proposition', concepts: Array<{ __typename: 'Concept', key: string }> }
          | { __typename: 'Source' }
         | null }>, sources: Array<{ __typename: 'RecallSource', sourceId: string, itemIds: Array<string> }>, trace: Array<{ __typename: 'RecallTraceStep', step: string, ms: number, detail: unknown }>, aggregate: { __typename: 'Aggregate', kind: string, target: string, period: string | null, count: number | null, sum: number | null, unit: string | null, unquantified: number, scanned: number, reason: string | null, value: number | null, valueUnit: string | null, valueFrom: string | null, units: Array<{ __typename: 'AggregateUnitTotal', unit: string, sum: number, count: number }>, periods: Array<{ __typename: 'AggregatePeriod', start: string, count: number, sums: Array<{ __typename: 'AggregateUnitTotal', unit: string, sum: number, count: number }> }>, items: Array<{ __typename: 'AggregateEvent', id: string, text: string, at: string | null, quantity: number | null, unit: string | null, similarity: number, duplicates: Array<string>, provenance: Array<{ __typename: 'ProvenanceEpisode', episodeId: string, sourceId: string, externalId: string, speaker: string, text: string, occurredAt: string | null }> }> } | null }
   };

export type RememberMutationVariables = Exact<{
  text: string;
  user?: string | null | undefined;
  agent?: string | null | undefined;
  session?: string | null | undefined;
  speaker?: string | null | undefined;
  at?: string | null | undefined;
  id?: string | null | undefined;
  metadata?: unknown;
}>;


export type RememberMutation = { __typename: 'Mutation', remember:
    | { __typename: 'InvalidInput', message: string, problems: Array<string> }
    | { __typename: 'Job', id: string, state: JobState, sources: Array<{ __typename: 'WrittenSource', id: string, externalId: string, kind: string, episodes: Array<{ __typename: 'WrittenEpisode', id: string, externalId: string }> }> }
    | { __typename: 'OverBudget', message: string, limit: number, requested: number }
   };

export type SourceEpisodesQueryVariables = Exact<{
  id: string;
  first?: number | null | undefined;
  after?: string | null | undefined;
  user?: string | null | undefined;
}>;


export type SourceEpisodesQuery = { __typename: 'Query', node:
    | { __typename: 'Concept' }
    | { __typename: 'Dimension' }
    | { __typename: 'Episode' }
    | { __typename: 'Intent' }
    | { __typename: 'Prescription' }
    | { __typename: 'Proposition' }
    | { __typename: 'Source', kind: string, externalId: string, episodes: { __typename: 'EpisodeConnection', totalCount: number | null, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'EpisodeEdge', node: { __typename: 'Episode', id: string, externalId: string, speaker: string, text: string, knowledge: Array<
              | { __typename: 'Prescription' }
              | { __typename: 'Proposition', text: string }
            > } }> } }
   | null };

export type SourcesQueryVariables = Exact<{
  user?: string | null | undefined;
  agent?: string | null | undefined;
  session?: string | null | undefined;
  metadata?: unknown;
  kind?: string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type SourcesQuery = { __typename: 'Query', sources: { __typename: 'ListedSourceConnection', totalCount: number | null, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'ListedSourceEdge', node: { __typename: 'ListedSource', id: string, externalId: string, kind: string, title: string, createdAt: string | null, agent: string | null, session: string | null, metadata: unknown, episodes: number } }> } };

export type StatsQueryVariables = Exact<{
  user?: string | null | undefined;
}>;


export type StatsQuery = { __typename: 'Query', stats: { __typename: 'SpaceStats', space: string, sources: number, episodes: number, propositions: number, activePropositions: number, concepts: number, intents: number, prescriptions: number, dimensions: number } };

export type UsersQueryVariables = Exact<{ [key: string]: never; }>;


export type UsersQuery = { __typename: 'Query', users: Array<{ __typename: 'User', user: string }> };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const ProfileFactFieldsFragmentDoc = new TypedDocumentString(`
    fragment ProfileFactFields on ProfileFact {
  propositionId
  text
  predicate
  value
  valueType
  polarity
  status
  validFrom
  validTo
  supersededBy
  reason
  provenance {
    episodeId
    externalId
    sourceId
    speaker
    text
    occurredAt
  }
}
    `, {"fragmentName":"ProfileFactFields"}) as unknown as TypedDocumentString<ProfileFactFieldsFragment, unknown>;
export const CreateApiKeyDocument = new TypedDocumentString(`
    mutation CreateApiKey($label: String!, $role: ApiKeyRole) {
  createApiKey(label: $label, role: $role) {
    secret
    key {
      id
      label
      role
      mintedBy
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const ApiKeysDocument = new TypedDocumentString(`
    query ApiKeys {
  apiKeys {
    id
    label
    role
    mintedBy
    createdAt
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<ApiKeysQuery, ApiKeysQueryVariables>;
export const RevokeApiKeyDocument = new TypedDocumentString(`
    mutation RevokeApiKey($id: ID!) {
  revokeApiKey(id: $id) {
    __typename
    ... on ApiKey {
      id
      revokedAt
    }
    ... on NotFound {
      message
    }
  }
}
    `) as unknown as TypedDocumentString<RevokeApiKeyMutation, RevokeApiKeyMutationVariables>;
export const AssociateDocument = new TypedDocumentString(`
    query Associate($utterance: String!, $now: DateTime, $limit: Int, $speaker: String, $user: String, $agent: String, $session: String, $metadata: JSON) {
  associate(
    utterance: $utterance
    now: $now
    limit: $limit
    speaker: $speaker
    user: $user
    agent: $agent
    session: $session
    metadata: $metadata
  ) {
    __typename
    ... on Associations {
      utterance
      associations {
        item {
          id
          kind
          text
          score
          components
          foundBy
          validFrom
          provenance {
            episodeId
            sourceId
            externalId
            speaker
            text
            occurredAt
          }
        }
        why {
          kind
          detail
          concepts
        }
      }
      reason
      trace {
        step
        ms
        detail
      }
    }
    ... on UserError {
      message
    }
    ... on InvalidInput {
      problems
    }
    ... on OverBudget {
      limit
      requested
    }
  }
}
    `) as unknown as TypedDocumentString<AssociateQuery, AssociateQueryVariables>;
export const ConceptPageDocument = new TypedDocumentString(`
    query ConceptPage($key: String!, $first: Int = 10, $after: String, $user: String) {
  concept(key: $key, user: $user) {
    __typename
    ... on ConceptPage {
      concept {
        id
        key
        name
        df
        importance
      }
      dimension {
        id
        label
      }
      associated {
        key
        weight
      }
      aliases
      propositions(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          cursor
          node {
            id
            text
            validFrom
            provenance {
              externalId
              text
            }
          }
        }
      }
    }
    ... on NotFound {
      message
    }
  }
}
    `) as unknown as TypedDocumentString<ConceptPageQuery, ConceptPageQueryVariables>;
export const CorrectDocument = new TypedDocumentString(`
    mutation Correct($propositionId: ID!, $text: String!, $validFrom: DateTime, $reason: String = "", $user: String) {
  correct(
    input: {propositionId: $propositionId, text: $text, validFrom: $validFrom, reason: $reason}
    user: $user
  ) {
    __typename
    ... on Corrected {
      created
      propositionId
      supersedesId
      proposition {
        id
        text
        status
        provenance {
          externalId
        }
      }
      supersedes {
        id
        status
      }
    }
    ... on UserError {
      message
    }
  }
}
    `) as unknown as TypedDocumentString<CorrectMutation, CorrectMutationVariables>;
export const CreateSpaceDocument = new TypedDocumentString(`
    mutation CreateSpace($name: String!) {
  createSpace(name: $name) {
    __typename
    ... on SpaceCreated {
      space
      key {
        secret
        key {
          id
          label
          createdAt
        }
      }
    }
    ... on SpaceExists {
      space
      message
    }
    ... on InvalidInput {
      message
    }
  }
}
    `) as unknown as TypedDocumentString<CreateSpaceMutation, CreateSpaceMutationVariables>;
export const DeleteSpaceDocument = new TypedDocumentString(`
    mutation DeleteSpace($name: String!) {
  deleteSpace(name: $name) {
    __typename
    ... on SpaceDeleted {
      space
      users
      episodesRemoved
      knowledgeRemoved
      stoppedJobIds
    }
    ... on NotFound {
      message
    }
  }
}
    `) as unknown as TypedDocumentString<DeleteSpaceMutation, DeleteSpaceMutationVariables>;
export const DimensionsDocument = new TypedDocumentString(`
    query Dimensions($user: String) {
  dimensions(first: 10, user: $user) {
    totalCount
    edges {
      node {
        dimension {
          id
          label
        }
        conceptCount
        concepts(first: 5) {
          edges {
            node {
              concept {
                key
              }
              summary
            }
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DimensionsQuery, DimensionsQueryVariables>;
export const ExportDocument = new TypedDocumentString(`
    query Export($user: String, $agent: String, $session: String, $metadata: JSON, $first: Int = 100, $after: String) {
  export(
    user: $user
    agent: $agent
    session: $session
    metadata: $metadata
    first: $first
    after: $after
  ) {
    jsonl
    records
    sources
    totalSources
    endCursor
  }
}
    `) as unknown as TypedDocumentString<ExportQuery, ExportQueryVariables>;
export const ExportVectorsDocument = new TypedDocumentString(`
    query ExportVectors($user: String, $first: Int = 1000, $after: String) {
  exportVectors(user: $user, first: $first, after: $after) {
    jsonl
    nodes
    totalNodes
    endCursor
  }
}
    `) as unknown as TypedDocumentString<ExportVectorsQuery, ExportVectorsQueryVariables>;
export const FollowDocument = new TypedDocumentString(`
    query Follow($nodeId: ID!, $linkType: LinkType!, $user: String) {
  follow(nodeId: $nodeId, linkType: $linkType, user: $user) {
    __typename
    ... on Links {
      links {
        type
        outgoing
        properties
        node {
          id
          __typename
          ... on Episode {
            speaker
            text
          }
          ... on Proposition {
            text
          }
          ... on Concept {
            key
          }
          ... on Prescription {
            text
          }
          ... on Intent {
            text
          }
          ... on Source {
            title
          }
        }
      }
    }
    ... on NotFound {
      message
    }
  }
}
    `) as unknown as TypedDocumentString<FollowQuery, FollowQueryVariables>;
export const ForgetDocument = new TypedDocumentString(`
    mutation Forget($episodeIds: [ID!] = [], $sourceIds: [ID!] = [], $knowledgeIds: [ID!] = [], $agent: String, $session: String, $metadata: JSON, $user: String) {
  forget(
    input: {episodeIds: $episodeIds, sourceIds: $sourceIds, knowledgeIds: $knowledgeIds, agent: $agent, session: $session, metadata: $metadata}
    user: $user
  ) {
    __typename
    ... on Forgotten {
      episodeIds
      knowledgeIds
      sourceIds
      intentIds
      conceptsRemoved
      notFound
      episodesRemoved
      knowledgeRemoved
      stoppedJobIds
    }
    ... on UserError {
      message
    }
    ... on InvalidInput {
      problems
    }
  }
}
    `) as unknown as TypedDocumentString<ForgetMutation, ForgetMutationVariables>;
export const HistoryDocument = new TypedDocumentString(`
    query History($propositionId: ID!, $user: String) {
  history(propositionId: $propositionId, user: $user) {
    __typename
    ... on History {
      propositionId
      status
      currentId
      replaced {
        propositionId
        text
        status
        reason
        replacedBy
        validFrom
        validTo
        expiredAt
        fact {
          subject
          attribute
          value
          valueType
          aspect
          polarity
          ends
        }
      }
    }
    ... on NotFound {
      message
      id
    }
  }
}
    `) as unknown as TypedDocumentString<HistoryQuery, HistoryQueryVariables>;
export const IngestDocument = new TypedDocumentString(`
    mutation Ingest($records: JSON!) {
  ingest(input: {records: $records}) {
    __typename
    ... on Job {
      id
      state
      sources {
        id
        externalId
        kind
        episodes {
          id
          externalId
        }
      }
    }
    ... on InvalidInput {
      message
      problems
    }
    ... on OverBudget {
      message
      limit
      requested
    }
  }
}
    `) as unknown as TypedDocumentString<IngestMutation, IngestMutationVariables>;
export const JobDocument = new TypedDocumentString(`
    query Job($id: ID!) {
  job(id: $id) {
    __typename
    ... on Job {
      id
      state
      stage
      done
      total
      fraction
      stagesDone
      stageSeconds
      counts
      error
      createdAt
      finishedAt
    }
    ... on NotFound {
      message
    }
  }
}
    `) as unknown as TypedDocumentString<JobQuery, JobQueryVariables>;
export const JobProgressDocument = new TypedDocumentString(`
    subscription JobProgress($id: ID!) {
  jobProgress(id: $id) {
    id
    state
    stage
    fraction
    counts
  }
}
    `) as unknown as TypedDocumentString<JobProgressSubscription, JobProgressSubscriptionVariables>;
export const MemoriesDocument = new TypedDocumentString(`
    query Memories($user: String, $kinds: [MemoryKind!], $agent: String, $session: String, $metadata: JSON, $since: DateTime, $until: DateTime, $includeSuperseded: Boolean = false, $first: Int = 20, $after: String) {
  memories(
    user: $user
    kinds: $kinds
    agent: $agent
    session: $session
    metadata: $metadata
    since: $since
    until: $until
    includeSuperseded: $includeSuperseded
    first: $first
    after: $after
  ) {
    totalCount
    pageInfo {
      hasNextPage
      endCursor
    }
    edges {
      node {
        id
        kind
        text
        status
        at
        validTo
        origins {
          episodeId
          episodeExternalId
          sourceId
          sourceExternalId
        }
        fact {
          subject
          attribute
          value
          valueType
          aspect
          polarity
          ends
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<MemoriesQuery, MemoriesQueryVariables>;
export const MemoryDocument = new TypedDocumentString(`
    query Memory($id: ID!, $user: String) {
  node(id: $id, user: $user) {
    __typename
    id
    ... on Proposition {
      text
      status
      subject
      validFrom
      validTo
      recordedAt
      expiredAt
      confidence
      supersededBy
      fact {
        subject
        attribute
        value
        valueType
        aspect
        polarity
        ends
      }
      concepts {
        key
      }
      provenance {
        id
        externalId
        speaker
        text
        occurredAt
        source {
          id
          externalId
          kind
          title
        }
      }
    }
    ... on Prescription {
      text
      steps
      provenance {
        id
        externalId
        speaker
        text
        occurredAt
        source {
          id
          externalId
          kind
          title
        }
      }
    }
    ... on Episode {
      externalId
      speaker
      text
      occurredAt
      source {
        id
        externalId
        kind
        title
      }
      knowledge {
        __typename
        ... on Proposition {
          id
          text
          status
        }
        ... on Prescription {
          id
          text
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<MemoryQuery, MemoryQueryVariables>;
export const ProfileDocument = new TypedDocumentString(`
    query Profile($user: String!, $subject: String) {
  profile(user: $user, subject: $subject) {
    __typename
    ... on Profile {
      user
      truncated
      subjects {
        subject
        facts
        slots {
          subject
          slot
          current {
            ...ProfileFactFields
          }
          alsoCurrent {
            ...ProfileFactFields
          }
          history {
            ...ProfileFactFields
          }
        }
      }
    }
    ... on InvalidInput {
      message
      problems
    }
  }
}
    fragment ProfileFactFields on ProfileFact {
  propositionId
  text
  predicate
  value
  valueType
  polarity
  status
  validFrom
  validTo
  supersededBy
  reason
  provenance {
    episodeId
    externalId
    sourceId
    speaker
    text
    occurredAt
  }
}`) as unknown as TypedDocumentString<ProfileQuery, ProfileQueryVariables>;
export const RecallDocument = new TypedDocumentString(`
    query Recall($query: String!, $tokenBudget: Int, $asOf: DateTime, $knownAt: DateTime, $memoryTypes: [MemoryType!], $limit: Int, $hopLimit: Int, $asker: String, $addressee: String, $now: DateTime, $minRelevance: Float, $user: String, $agent: String, $session: String, $metadata: JSON, $recipe: String) {
  recall(
    query: $query
    tokenBudget: $tokenBudget
    asOf: $asOf
    knownAt: $knownAt
    memoryTypes: $memoryTypes
    limit: $limit
    hopLimit: $hopLimit
    asker: $asker
    addressee: $addressee
    now: $now
    minRelevance: $minRelevance
    user: $user
    agent: $agent
    session: $session
    metadata: $metadata
    recipe: $recipe
  ) {
    __typename
    ... on Recall {
      memoryTypes
      tokens
      hops
      items {
        id
        kind
        text
        score
        components
        tokens
        foundBy
        relevance
        validFrom
        supersededBy
        validTo
        provenance {
          episodeId
          sourceId
          externalId
          speaker
          text
          occurredAt
        }
        node {
          ... on Proposition {
            concepts {
              key
            }
          }
        }
      }
      sources {
        sourceId
        itemIds
      }
      trace {
        step
        ms
        detail
      }
      cypher
      reason
      aggregate {
        kind
        target
        period
        count
        sum
        unit
        units {
          unit
          sum
          count
        }
        periods {
          start
          count
          sums {
            unit
            sum
            count
          }
        }
        unquantified
        scanned
        reason
        value
        valueUnit
        valueFrom
        items {
          id
          text
          at
          quantity
          unit
          similarity
          duplicates
          provenance {
            episodeId
            sourceId
            externalId
            speaker
            text
            occurredAt
          }
        }
      }
    }
    ... on UserError {
      message
    }
  }
}
    `) as unknown as TypedDocumentString<RecallQuery, RecallQueryVariables>;
export const RememberDocument = new TypedDocumentString(`
    mutation Remember($text: String!, $user: String, $agent: String, $session: String, $speaker: String, $at: DateTime, $id: String, $metadata: JSON) {
  remember(
    text: $text
    user: $user
    agent: $agent
    session: $session
    speaker: $speaker
    at: $at
    id: $id
    metadata: $metadata
  ) {
    __typename
    ... on Job {
      id
      state
      sources {
        id
        externalId
        kind
        episodes {
          id
          externalId
        }
      }
    }
    ... on InvalidInput {
      message
      problems
    }
    ... on OverBudget {
      message
      limit
      requested
    }
  }
}
    `) as unknown as TypedDocumentString<RememberMutation, RememberMutationVariables>;
export const SourceEpisodesDocument = new TypedDocumentString(`
    query SourceEpisodes($id: ID!, $first: Int = 20, $after: String, $user: String) {
  node(id: $id, user: $user) {
    ... on Source {
      kind
      externalId
      episodes(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            id
            externalId
            speaker
            text
            knowledge {
              __typename
              ... on Proposition {
                text
              }
            }
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<SourceEpisodesQuery, SourceEpisodesQueryVariables>;
export const SourcesDocument = new TypedDocumentString(`
    query Sources($user: String, $agent: String, $session: String, $metadata: JSON, $kind: String, $first: Int = 20, $after: String) {
  sources(
    user: $user
    agent: $agent
    session: $session
    metadata: $metadata
    kind: $kind
    first: $first
    after: $after
  ) {
    totalCount
    pageInfo {
      hasNextPage
      endCursor
    }
    edges {
      node {
        id
        externalId
        kind
        title
        createdAt
        agent
        session
        metadata
        episodes
      }
    }
  }
}
    `) as unknown as TypedDocumentString<SourcesQuery, SourcesQueryVariables>;
export const StatsDocument = new TypedDocumentString(`
    query Stats($user: String) {
  stats(user: $user) {
    space
    sources
    episodes
    propositions
    activePropositions
    concepts
    intents
    prescriptions
    dimensions
  }
}
    `) as unknown as TypedDocumentString<StatsQuery, StatsQueryVariables>;
export const UsersDocument = new TypedDocumentString(`
    query Users {
  users {
    user
  }
}
    `) as unknown as TypedDocumentString<UsersQuery, UsersQueryVariables>;