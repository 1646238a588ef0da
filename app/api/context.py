"""The per-request GraphQL context: the caller, a space-scoped graph reader and its DataLoaders.

One per HTTP request, and one per operation on a WebSocket (app/api/sockets.py): loaders never outlive an
operation, so nothing forgotten is served from their cache."""

from __future__ import annotations

from functools import cached_property

from strawberry.fastapi import BaseContext

from app.api.errors import Forbidden, InvalidArgument, Unauthenticated
from app.api.loaders import Loaders
from app.api.security import Caller
from app.api.services import ApiServices
from engram.scope import memory_space
from graph.api_keys import KeyRole
from graph.lookup import GraphReader

MAX_USER_CHARS = 200


class ApiContext(BaseContext):
    def __init__(self, services: ApiServices, caller: Caller | None) -> None:
        super().__init__()
        self.services = services
        self.caller = caller
        self.extra_queries = 0  # statements issued outside the reader (recall, writes), for the cost report
        # The user whose memory this request reads and writes (engram/scope.py), fixed by the first field that names
        # one or reads memory: every node a request returns comes from one user's memory.
        self._user: str | None = None
        self._user_fixed = False

    def for_user(self, user: str | None) -> str:
        """The memory space of `user` in the caller's space (None: the space's shared memory), fixed for the rest of
        the request: one request reads one user's memory, so nested fields never mix two."""
        if user is not None and (not user.strip() or len(user) > MAX_USER_CHARS or not user.isprintable()):
            raise InvalidArgument(f"user: 1-{MAX_USER_CHARS} printable characters")
        if self._user_fixed and user != self._user:
            raise InvalidArgument(
                f"user: this request already reads the memory of {self._user!r}; one user per request"
                if self._user is not None
                else "user: this request already reads the space's shared memory; one user per request"
            )
        self._user, self._user_fixed = user, True
        return memory_space(self.key_space, user)

    @property
    def user(self) -> str | None:
        return self._user

    @property
    def space(self) -> str:
        """The memory this request reads: the caller's space (from the API key, never from an argument), or the
        partition of the user a field named (`for_user`)."""
        if not self._user_fixed:
            self.for_user(None)
        return memory_space(self.key_space, self._user)

    @property
    def key_space(self) -> str:
        """The caller's space: from the API key, never from an argument."""
        if self.caller is None:
            raise Unauthenticated("send an API key: 'Authorization: Bearer egk_...' or 'X-API-Key: egk_...'")
        if self.caller.space is None:
            raise Forbidden("the admin key manages spaces; use a space's API key to read or write memory")
        return self.caller.space

    def space_for(self, role: KeyRole) -> str:
        """The request's memory space (`space`), for an operation that needs a key of `role` or above (writes need a
        writer)."""
        self.require(role)
        return self.space

    def require(self, role: KeyRole) -> None:
        """Refuses a caller whose key is below `role` (or who has no space key)."""
        self.key_space  # noqa: B018 - raises for a missing key or the admin key
        held = self.caller.role if self.caller is not None else None
        if held is not None and held.rank < role.rank:
            raise Forbidden(f"this operation needs a {role.value} key; this key is a {held.value} key")

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
