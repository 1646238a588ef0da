"""The per-request GraphQL context: the caller, a space-scoped graph reader and its DataLoaders."""

from __future__ import annotations

from functools import cached_property

from strawberry.fastapi import BaseContext

from app.api.errors import Forbidden, Unauthenticated
from app.api.loaders import Loaders
from app.api.security import Caller, authenticate
from app.api.services import ApiServices
from graph.api_keys import InvalidApiKey
from graph.lookup import GraphReader


class ApiContext(BaseContext):
    def __init__(self, services: ApiServices, caller: Caller | None) -> None:
        super().__init__()
        self.services = services
        self.caller = caller
        self.extra_queries = 0  # statements issued outside the reader (recall, writes), for the cost report

    def _caller_from_connection_params(self) -> Caller | None:
        """Subscriptions may send the key in graphql-transport-ws `connection_init` instead of a header."""
        params = self.connection_params if isinstance(self.connection_params, dict) else {}
        key = params.get("apiKey") or params.get("authorization", "").removeprefix("Bearer ").strip() or None
        try:
            return authenticate(key, self.services.keys, self.services.settings.api.admin_key.get_secret_value())
        except InvalidApiKey as exc:
            raise Unauthenticated(f"{exc}") from exc

    @property
    def space(self) -> str:
        """The caller's space: from the API key, never from an argument."""
        if self.caller is None and self.connection_params:
            self.caller = self._caller_from_connection_params()
        if self.caller is None:
            raise Unauthenticated("send an API key: 'Authorization: Bearer egk_...' or 'X-API-Key: egk_...'")
        if self.caller.space is None:
            raise Forbidden("the admin key manages spaces; use a space's API key to read or write memory")
        return self.caller.space

    def require_admin(self) -> None:
        if self.caller is None or not self.caller.admin:
            raise Forbidden("this operation needs the admin key (ENGRAM_API_ADMIN_KEY)")

    @cached_property
    def reader(self) -> GraphReader:
        return GraphReader(self.services.driver, self.services.database, self.space)

    @cached_property
    def loaders(self) -> Loaders:
        return Loaders(self.reader)

    @property
    def neo4j_queries(self) -> int:
        reader = self.__dict__.get("reader")
        return self.extra_queries + (reader.queries if reader is not None else 0)
