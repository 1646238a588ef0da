from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any, Optional, Union

from .api_keys import ApiKeys
from .associate import Associate
from .async_base_client import AsyncBaseClient
from .base_model import UNSET, UnsetType
from .concept_page import ConceptPage
from .correct import Correct
from .create_api_key import CreateApiKey
from .create_space import CreateSpace
from .delete_space import DeleteSpace
from .dimensions import Dimensions
from .enums import ApiKeyRole, LinkType, MemoryKind, MemoryType
from .export import Export
from .export_vectors import ExportVectors
from .follow import Follow
from .forget import Forget
from .history import History
from .ingest import Ingest
from .job import Job
from .job_progress import JobProgress
from .memories import Memories
from .memory import Memory
from .profile import Profile
from .recall import Recall
from .remember import Remember
from .revoke_api_key import RevokeApiKey
from .source_episodes import SourceEpisodes
from .sources import Sources
from .stats import Stats
from .users import Users


def gql(q: str) -> str:
    return q


class AsyncEngramClient(AsyncBaseClient):
    async def create_api_key(
        self,
        label: str,
        role: Union[Optional[ApiKeyRole], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> CreateApiKey:
        query = gql("""
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
            """)
        variables: dict[str, object] = {"label": label, "role": role}
        response = await self.execute(
            query=query, operation_name="CreateApiKey", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return CreateApiKey.model_validate(data)

    async def api_keys(self, **kwargs: Any) -> ApiKeys:
        query = gql("""
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
            """)
        variables: dict[str, object] = {}
        response = await self.execute(
            query=query, operation_name="ApiKeys", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return ApiKeys.model_validate(data)

    async def revoke_api_key(self, id: str, **kwargs: Any) -> RevokeApiKey:
        query = gql("""
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
            """)
        variables: dict[str, object] = {"id": id}
        response = await self.execute(
            query=query, operation_name="RevokeApiKey", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return RevokeApiKey.model_validate(data)

    async def associate(
        self,
        utterance: str,
        now: Union[Optional[datetime], UnsetType] = UNSET,
        limit: Union[Optional[int], UnsetType] = UNSET,
        speaker: Union[Optional[str], UnsetType] = UNSET,
        user: Union[Optional[str], UnsetType] = UNSET,
        agent: Union[Optional[str], UnsetType] = UNSET,
        session: Union[Optional[str], UnsetType] = UNSET,
        metadata: Union[Optional[Any], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Associate:
        query = gql("""
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
            """)
        variables: dict[str, object] = {
            "utterance": utterance,
            "now": now,
            "limit": limit,
            "speaker": speaker,
            "user": user,
            "agent": agent,
            "session": session,
            "metadata": metadata,
        }
        response = await self.execute(
            query=query, operation_name="Associate", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Associate.model_validate(data)

    async def concept_page(
        self,
        key: str,
        first: Union[Optional[int], UnsetType] = UNSET,
        after: Union[Optional[str], UnsetType] = UNSET,
        user: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> ConceptPage:
        query = gql("""
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
            """)
        variables: dict[str, object] = {
            "key": key,
            "first": first,
            "after": after,
            "user": user,
        }
        response = await self.execute(
            query=query, operation_name="ConceptPage", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return ConceptPage.model_validate(data)

    async def correct(
        self,
        proposition_id: str,
        text: str,
        valid_from: Union[Optional[datetime], UnsetType] = UNSET,
        reason: Union[Optional[str], UnsetType] = UNSET,
        user: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Correct:
        query = gql("""
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
            """)
        variables: dict[str, object] = {
            "propositionId": proposition_id,
            "text": text,
            "validFrom": valid_from,
            "reason": reason,
            "user": user,
        }
        response = await self.execute(
            query=query, operation_name="Correct", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Correct.model_validate(data)

    async def create_space(self, name: str, **kwargs: Any) -> CreateSpace:
        query = gql("""
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
            """)
        variables: dict[str, object] = {"name": name}
        response = await self.execute(
            query=query, operation_name="CreateSpace", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return CreateSpace.model_validate(data)

    async def delete_space(self, name: str, **kwargs: Any) -> DeleteSpace:
        query = gql("""
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
            """)
        variables: dict[str, object] = {"name": name}
        response = await self.execute(
            query=query, operation_name="DeleteSpace", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return DeleteSpace.model_validate(data)

    async def dimensions(
        self, user: Union[Optional[str], UnsetType] = UNSET, **kwargs: Any
    ) -> Dimensions:
        query = gql("""
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
            """)
        variables: dict[str, object] = {"user": user}
        response = await self.execute(
            query=query, operation_name="Dimensions", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Dimensions.model_validate(data)

    async def export(
        self,
        user: Union[Optional[str], UnsetType] = UNSET,
        agent: Union[Optional[str], UnsetType] = UNSET,
        session: Union[Optional[str], UnsetType] = UNSET,
        metadata: Union[Optional[Any], UnsetType] = UNSET,
        first: Union[Optional[int], UnsetType] = UNSET,
        after: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Export:
        query = gql("""
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
            """)
        variables: dict[str, object] = {
            "user": user,
            "agent": agent,
            "session": session,
            "metadata": metadata,
            "first": first,
            "after": after,
        }
        response = await self.execute(
            query=query, operation_name="Export", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Export.model_validate(data)

    async def export_vectors(
        self,
        user: Union[Optional[str], UnsetType] = UNSET,
        first: Union[Optional[int], UnsetType] = UNSET,
        after: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> ExportVectors:
        query = gql("""
            query ExportVectors($user: String, $first: Int = 1000, $after: String) {
              exportVectors(user: $user, first: $first, after: $after) {
                jsonl
                nodes
                totalNodes
                endCursor
              }
            }
            """)
        variables: dict[str, object] = {"user": user, "first": first, "after": after}
        response = await self.execute(
            query=query, operation_name="ExportVectors", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return ExportVectors.model_validate(data)

    async def follow(
        self,
        node_id: str,
        link_type: LinkType,
        user: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Follow:
        query = gql("""
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
            """)
        variables: dict[str, object] = {
            "nodeId": node_id,
            "linkType": link_type,
            "user": user,
        }
        response = await self.execute(
            query=query, operation_name="Follow", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Follow.model_validate(data)

    async def forget(
        self,
        episode_ids: Union[Optional[list[str]], UnsetType] = UNSET,
        source_ids: Union[Optional[list[str]], UnsetType] = UNSET,
        knowledge_ids: Union[Optional[list[str]], UnsetType] = UNSET,
        agent: Union[Optional[str], UnsetType] = UNSET,
        session: Union[Optional[str], UnsetType] = UNSET,
        metadata: Union[Optional[Any], UnsetType] = UNSET,
        user: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Forget:
        query = gql("""
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
            """)
        variables: dict[str, object] = {
            "episodeIds": episode_ids,
            "sourceIds": source_ids,
            "knowledgeIds": knowledge_ids,
            "agent": agent,
            "session": session,
            "metadata": metadata,
            "user": user,
        }
        response = await self.execute(
            query=query, operation_name="Forget", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Forget.model_validate(data)

    async def history(
        self,
        proposition_id: str,
        user: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> History:
        query = gql("""
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
            """)
        variables: dict[str, object] = {"propositionId": proposition_id, "user": user}
        response = await self.execute(
            query=query, operation_name="History", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return History.model_validate(data)

    async def ingest(self, records: Any, **kwargs: Any) -> Ingest:
        query = gql("""
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
            """)
        variables: dict[str, object] = {"records": records}
        response = await self.execute(
            query=query, operation_name="Ingest", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Ingest.model_validate(data)

    async def job(self, id: str, **kwargs: Any) -> Job:
        query = gql("""
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
            """)
        variables: dict[str, object] = {"id": id}
        response = await self.execute(
            query=query, operation_name="Job", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Job.model_validate(data)

    async def job_progress(self, id: str, **kwargs: Any) -> AsyncIterator[JobProgress]:
        query = gql("""
            subscription JobProgress($id: ID!) {
              jobProgress(id: $id) {
                id
                state
                stage
                fraction
                counts
              }
            }
            """)
        variables: dict[str, object] = {"id": id}
        async for data in self.execute_ws(
            query=query, operation_name="JobProgress", variables=variables, **kwargs
        ):
            yield JobProgress.model_validate(data)

    async def memories(
        self,
        user: Union[Optional[str], UnsetType] = UNSET,
        kinds: Union[Optional[list[MemoryKind]], UnsetType] = UNSET,
        agent: Union[Optional[str], UnsetType] = UNSET,
        session: Union[Optional[str], UnsetType] = UNSET,
        metadata: Union[Optional[Any], UnsetType] = UNSET,
        since: Union[Optional[datetime], UnsetType] = UNSET,
        until: Union[Optional[datetime], UnsetType] = UNSET,
        include_superseded: Union[Optional[bool], UnsetType] = UNSET,
        first: Union[Optional[int], UnsetType] = UNSET,
        after: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Memories:
        query = gql("""
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
            """)
        variables: dict[str, object] = {
            "user": user,
            "kinds": kinds,
            "agent": agent,
            "session": session,
            "metadata": metadata,
            "since": since,
            "until": until,
            "includeSuperseded": include_superseded,
            "first": first,
            "after": after,
        }
        response = await self.execute(
            query=query, operation_name="Memories", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Memories.model_validate(data)

    async def memory(
        self, id: str, user: Union[Optional[str], UnsetType] = UNSET, **kwargs: Any
    ) -> Memory:
        query = gql("""
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
            """)
        variables: dict[str, object] = {"id": id, "user": user}
        response = await self.execute(
            query=query, operation_name="Memory", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Memory.model_validate(data)

    async def profile(
        self, user: str, subject: Union[Optional[str], UnsetType] = UNSET, **kwargs: Any
    ) -> Profile:
        query = gql("""
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
            }
            """)
        variables: dict[str, object] = {"user": user, "subject": subject}
        response = await self.execute(
            query=query, operation_name="Profile", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Profile.model_validate(data)

    async def recall(
        self,
        query: str,
        token_budget: Union[Optional[int], UnsetType] = UNSET,
        as_of: Union[Optional[datetime], UnsetType] = UNSET,
        known_at: Union[Optional[datetime], UnsetType] = UNSET,
        memory_types: Union[Optional[list[MemoryType]], UnsetType] = UNSET,
        limit: Union[Optional[int], UnsetType] = UNSET,
        hop_limit: Union[Optional[int], UnsetType] = UNSET,
        asker: Union[Optional[str], UnsetType] = UNSET,
        addressee: Union[Optional[str], UnsetType] = UNSET,
        now: Union[Optional[datetime], UnsetType] = UNSET,
        min_relevance: Union[Optional[float], UnsetType] = UNSET,
        user: Union[Optional[str], UnsetType] = UNSET,
        agent: Union[Optional[str], UnsetType] = UNSET,
        session: Union[Optional[str], UnsetType] = UNSET,
        metadata: Union[Optional[Any], UnsetType] = UNSET,
        recipe: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Recall:
        _query = gql("""
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
                      __typename
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
            """)
        variables: dict[str, object] = {
            "query": query,
            "tokenBudget": token_budget,
            "asOf": as_of,
            "knownAt": known_at,
            "memoryTypes": memory_types,
            "limit": limit,
            "hopLimit": hop_limit,
            "asker": asker,
            "addressee": addressee,
            "now": now,
            "minRelevance": min_relevance,
            "user": user,
            "agent": agent,
            "session": session,
            "metadata": metadata,
            "recipe": recipe,
        }
        response = await self.execute(
            query=_query, operation_name="Recall", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Recall.model_validate(data)

    async def remember(
        self,
        text: str,
        user: Union[Optional[str], UnsetType] = UNSET,
        agent: Union[Optional[str], UnsetType] = UNSET,
        session: Union[Optional[str], UnsetType] = UNSET,
        speaker: Union[Optional[str], UnsetType] = UNSET,
        at: Union[Optional[datetime], UnsetType] = UNSET,
        id: Union[Optional[str], UnsetType] = UNSET,
        metadata: Union[Optional[Any], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Remember:
        query = gql("""
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
            """)
        variables: dict[str, object] = {
            "text": text,
            "user": user,
            "agent": agent,
            "session": session,
            "speaker": speaker,
            "at": at,
            "id": id,
            "metadata": metadata,
        }
        response = await self.execute(
            query=query, operation_name="Remember", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Remember.model_validate(data)

    async def source_episodes(
        self,
        id: str,
        first: Union[Optional[int], UnsetType] = UNSET,
        after: Union[Optional[str], UnsetType] = UNSET,
        user: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> SourceEpisodes:
        query = gql("""
            query SourceEpisodes($id: ID!, $first: Int = 20, $after: String, $user: String) {
              node(id: $id, user: $user) {
                __typename
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
            """)
        variables: dict[str, object] = {
            "id": id,
            "first": first,
            "after": after,
            "user": user,
        }
        response = await self.execute(
            query=query, operation_name="SourceEpisodes", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return SourceEpisodes.model_validate(data)

    async def sources(
        self,
        user: Union[Optional[str], UnsetType] = UNSET,
        agent: Union[Optional[str], UnsetType] = UNSET,
        session: Union[Optional[str], UnsetType] = UNSET,
        metadata: Union[Optional[Any], UnsetType] = UNSET,
        kind: Union[Optional[str], UnsetType] = UNSET,
        first: Union[Optional[int], UnsetType] = UNSET,
        after: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Sources:
        query = gql("""
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
            """)
        variables: dict[str, object] = {
            "user": user,
            "agent": agent,
            "session": session,
            "metadata": metadata,
            "kind": kind,
            "first": first,
            "after": after,
        }
        response = await self.execute(
            query=query, operation_name="Sources", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Sources.model_validate(data)

    async def stats(
        self, user: Union[Optional[str], UnsetType] = UNSET, **kwargs: Any
    ) -> Stats:
        query = gql("""
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
            """)
        variables: dict[str, object] = {"user": user}
        response = await self.execute(
            query=query, operation_name="Stats", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Stats.model_validate(data)

    async def users(self, **kwargs: Any) -> Users:
        query = gql("""
            query Users {
              users {
                user
              }
            }
            """)
        variables: dict[str, object] = {}
        response = await self.execute(
            query=query, operation_name="Users", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Users.model_validate(data)
