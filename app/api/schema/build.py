"""The schema object, with the limits and masking of a deployment."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry
from strawberry.extensions import (
    AddValidationRules,
    DisableIntrospection,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    ParserCache,
    QueryDepthLimiter,
    SchemaExtension,
    ValidationCache,
)

from app.api.errors import CorrelatedMaskErrors
from app.api.lone_surrogates import RefuseLoneSurrogates
from app.api.operation_cost import RootFieldCost
from app.api.requests import OperationLabels
from app.api.schema.associate import AssociateQuery
from app.api.schema.maintenance import MaintenanceMutation, MaintenanceQuery
from app.api.schema.mutation import MemoryMutation
from app.api.schema.nodes import Concept, Dimension, Episode, Intent, Prescription, Proposition, Source
from app.api.schema.profile_types import ProfileQuery
from app.api.schema.query import MemoryQuery
from app.api.schema.scalars import DateTime
from app.api.schema.scope_types import ScopeMutation, ScopeQuery, VectorExportQuery
from app.api.schema.subscription import Subscription
from engram.settings import ApiSettings

DOCUMENT_CACHE_SIZE = 512  # distinct operation documents whose parse and validation are kept

# Node implementations that no field names directly still belong in the schema (`node(id)` returns them).
NODE_TYPES = [Episode, Proposition, Prescription, Intent, Concept, Source, Dimension]


class Neo4jCost(SchemaExtension):
    """Reports in `extensions.cost` how many Cypher statements the operation issued."""

    def get_results(self) -> dict[str, Any]:
        context = self.execution_context.context
        queries = getattr(context, "neo4j_queries", None)
        return {} if queries is None else {"cost": {"neo4jQueries": queries}}


@strawberry.type
class Query(MemoryQuery, AssociateQuery, MaintenanceQuery, ScopeQuery, VectorExportQuery, ProfileQuery):
    pass


@strawberry.type
class Mutation(MemoryMutation, MaintenanceMutation, ScopeMutation):
    pass


class EngramSchema(strawberry.Schema):
    def process_errors(self, errors: Any, execution_context: Any = None) -> None:
        """Client errors are the client's business, and unexpected ones were already logged, with their
        correlation id, by CorrelatedMaskErrors: nothing more to log here."""


def build_schema(settings: ApiSettings | None = None) -> strawberry.Schema:
    """The schema; without settings, bare (for exporting the SDL)."""
    extensions: list[Any] = []
    if settings is not None:
        # Factories, not instances: each operation gets fresh extension state.
        # The limits' validation rules are built once: the limiters make a new rule class per instance, and a
        # document validated under new classes is never found in the validation cache.
        limits = [
            *QueryDepthLimiter(max_depth=settings.max_query_depth).validation_rules,
            *MaxAliasesLimiter(max_alias_count=settings.max_aliases).validation_rules,
        ]
        extensions = [
            OperationLabels,  # first: it sees the errors as the client does, after masking
            lambda: MaxTokensLimiter(max_token_count=settings.max_query_tokens),
            lambda: AddValidationRules(limits),
            # Clients send the same few documents again and again: parsing and validating them took a large share
            # of the API's Python time under load (docs/tuning.md). Both caches are bounded LRUs, keyed by the whole
            # document (and the parse options and rules), so a cached verdict is the one a fresh check would give.
            lambda: ParserCache(maxsize=DOCUMENT_CACHE_SIZE),
            lambda: ValidationCache(maxsize=DOCUMENT_CACHE_SIZE),
            RefuseLoneSurrogates,  # after validation: a valid document whose text is no Unicode text runs nothing
            lambda: RootFieldCost(settings.rate_limit_per_minute),  # after validation: counts a valid document
            CorrelatedMaskErrors,
            Neo4jCost,
        ]
        if not settings.development:
            extensions.append(DisableIntrospection)
    return EngramSchema(
        query=Query,
        mutation=Mutation,
        subscription=Subscription,
        types=NODE_TYPES,
        extensions=extensions,
        scalar_overrides={datetime: DateTime},
    )
