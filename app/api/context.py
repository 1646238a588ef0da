"""The per-request GraphQL context: the caller, a space-scoped graph reader and its DataLoaders.

One per HTTP request, and one per operation on a WebSocket (app/api/sockets.py): loaders never outlive an
operation, so nothing forgotten is served from their cache."""

from __future__ import annotations

from functools import cached_property

from strawberry.fastapi import BaseContext

from app.api.errors import Forbidden, Unauthenticated
from app.api.loaders import Loaders
from app.api.security import Caller
from app.api.services import ApiServices
from graph.api_keys import KeyRole
from graph.lookup import GraphReader


class ApiContext(BaseContext):
    def __init__(self, services: ApiServices, caller: Caller | None) -> None:
        super().__init__()
        self.services = services
        self.caller = caller
        self.extra_queries = 0  # statements issued outside the reader (recall, writes), for the cost report

    @property
    def space(self) -> str:
        """The caller's space: from the API key, never from an argument."""
        if self.caller is None:
            raise Unauthenticated("send an API key: 'Authorization: Bearer egk_...' or 'X-API-Key: egk_...'")
        if self.caller.space is None:
            raise Forbidden("the admin key manages spaces; use a space's API key to read or write memory")
        return self.caller.space

    def space_for(self, role: KeyRole) -> str:
        """The caller's space, for an operation that needs a key of `role` or above (writes need a writer)."""
        space = self.space
        held = self.caller.role if self.caller is not None else None
        if held is not None and held.rank < role.rank:
            raise Forbidden(f"this operation needs a {role.value} key; this key is a {held.value} key")
        return space

    def require_admin(self) -> None:
        if self.caller is None or not self.caller.admin:
            raise Forbidden("this operation needs the admin key (ENGRAM_API_ADMIN_KEY)")

    @cached_property
    def reader(self) -> GraphReader:
        services = self.services
        return GraphReader(services.driver, services.database, self.space, services.settings.neo4j.read_timeout_s)

    @cached_property
    def loaders(self) -> Loaders:
        return Loaders(self.reader)

    @property
    def neo4j_queries(self) -> int:
        reader = self.__dict__.get("reader")
        return self.extra_queries + (reader.queries if reader is not None else 0)
