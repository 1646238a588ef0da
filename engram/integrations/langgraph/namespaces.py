"""LangGraph namespaces as Engram scopes: `(*prefix, user, session, agent)`, the last two optional.

A namespace is a tuple of labels. The store's fixed `prefix` (none by default; `("memories",)` for the common
`("memories", user_id)` idiom) comes first and is not stored; then the labels fill the store's `layout` in order: the
user (whose memory: a partition of its own, never mixed with another user's), then the session and the agent
(labels on the memory that recall, listing and forget filter on). `(*prefix, "ana")` is Ana's memory outside any
session; `(*prefix, "ana", "trip")` her session `trip`; `(*prefix, "ana", "trip", "planner")` what the agent
`planner` wrote in it. A search's namespace prefix covers the namespaces below it, as Engram's filters do: `("ana",)`
finds the items of every session of Ana's.

Each item is a source of its own, `langgraph/<id>`: the id encodes the namespace and the key injectively (each label
percent-encoded, joined by '.'), or is '#' and a digest where that would pass Engram's 200 characters.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from langgraph.store.base import InvalidNamespaceError

ROLES = ("user", "session", "agent")
DEFAULT_LAYOUT = ("user", "session", "agent")
RECORD_ID = "langgraph"  # every item is a conversation session of this record: source 'langgraph/<id>'
MAX_LABEL = 200  # Engram's scope ids and turn ids: 1-200 characters, no control characters
_CONTROL = re.compile(r"[\x00-\x1f]")


@dataclass(frozen=True)
class Scope:
    """Where a namespace lives in Engram: whose memory, and the session and agent labels (None: not named)."""

    user: str | None
    session: str | None = None
    agent: str | None = None

    def filters(self) -> dict[str, str]:
        """The client's keyword arguments that select this scope (user, session, agent; the named ones)."""
        named = {"user": self.user, "session": self.session, "agent": self.agent}
        return {k: v for k, v in named.items() if v is not None}


class Namespaces:
    """Checks namespaces and maps them to and from Engram scopes, for one store's prefix and layout."""

    def __init__(self, prefix: Sequence[str] = (), layout: Sequence[str] = DEFAULT_LAYOUT) -> None:
        layout = tuple(layout)
        if not layout or layout[0] != "user" or len(set(layout)) != len(layout) or not set(layout) <= set(ROLES):
            raise ValueError(f"layout {layout!r}: 'user' first, then 'session' and/or 'agent', each at most once")
        self.prefix = tuple(prefix)
        self.layout = layout
        for label in self.prefix:
            self._check_label(label, self.prefix)

    @property
    def max_depth(self) -> int:
        return len(self.prefix) + len(self.layout)

    def item_scope(self, namespace: tuple[str, ...]) -> Scope:
        """The scope of an item's namespace (put, get, delete): the prefix, a user and at most the layout's depth."""
        if not namespace:
            raise InvalidNamespaceError("Namespace cannot be empty: it names at least the user whose memory it is.")
        scope = self.search_scope(namespace)
        if scope.user is None:
            raise InvalidNamespaceError(
                f"Namespace {namespace!r} names no user: after the store's prefix {self.prefix!r} comes the user "
                f"({self._shape()})."
            )
        return scope

    def search_scope(self, namespace_prefix: tuple[str, ...]) -> Scope:
        """The scope a namespace prefix selects (search, list): the empty prefix and the store's prefix select every
        user's items."""
        self._check_labels(namespace_prefix)
        if len(namespace_prefix) > self.max_depth:
            raise InvalidNamespaceError(
                f"Namespace {namespace_prefix!r} is {len(namespace_prefix)} labels deep; this store's namespaces are "
                f"at most {self.max_depth}: {self._shape()}."
            )
        head = namespace_prefix[: len(self.prefix)]
        if head != self.prefix[: len(head)]:
            raise InvalidNamespaceError(
                f"Namespace {namespace_prefix!r} does not start with this store's prefix {self.prefix!r} "
                f"({self._shape()})."
            )
        labels = dict(zip(self.layout, namespace_prefix[len(self.prefix) :], strict=False))
        return Scope(user=labels.get("user"), session=labels.get("session"), agent=labels.get("agent"))

    def namespace(self, user: str, session: str | None, agent: str | None) -> tuple[str, ...]:
        """The namespace of an item stored in this scope: the layout's labels up to the first one not set."""
        values = {"user": user, "session": session, "agent": agent}
        labels: list[str] = []
        for role in self.layout:
            if values[role] is None:
                break
            labels.append(str(values[role]))
        return (*self.prefix, *labels)

    def _shape(self) -> str:
        return "(" + ", ".join([*map(repr, self.prefix), *self.layout]) + "), the labels after the user optional"

    def _check_labels(self, namespace: Any) -> None:
        if not isinstance(namespace, tuple):
            raise InvalidNamespaceError(f"Namespace {namespace!r} is not a tuple of strings.")
        for label in namespace:
            self._check_label(label, namespace)

    @staticmethod
    def _check_label(label: Any, namespace: tuple[Any, ...]) -> None:
        if not isinstance(label, str):
            raise InvalidNamespaceError(
                f"Invalid namespace label {label!r} in {namespace!r}: labels are strings, not {type(label).__name__}."
            )
        if not label or not label.strip():
            raise InvalidNamespaceError(f"Namespace labels cannot be empty or blank: {namespace!r}.")
        if "." in label:
            raise InvalidNamespaceError(f"Invalid namespace label {label!r} in {namespace!r}: no periods ('.').")
        if len(label) > MAX_LABEL:
            raise InvalidNamespaceError(
                f"Invalid namespace label {label[:40]!r}...: at most {MAX_LABEL} characters (Engram's users, sessions "
                "and agents)."
            )
        if _CONTROL.search(label):
            raise InvalidNamespaceError(f"Invalid namespace label {label!r} in {namespace!r}: no control characters.")


def check_key(key: Any) -> str:
    """An item's key is the Engram turn id: 1-200 characters, no control characters."""
    if not isinstance(key, str) or not key or len(key) > MAX_LABEL or _CONTROL.search(key):
        raise ValueError(f"key {str(key)[:40]!r}: a string of 1-{MAX_LABEL} characters without control characters")
    return key


def item_id(namespace: tuple[str, ...], key: str) -> str:
    """The item's Engram session id (its source is 'langgraph/<id>'): readable and injective, or a digest."""
    readable = ".".join(quote(part, safe="").replace(".", "%2E") for part in (*namespace, key))
    if len(readable) <= MAX_LABEL:
        return readable
    return "#" + hashlib.sha256("\x1f".join((*namespace, key)).encode("utf-8")).hexdigest()[:40]


def source_ref(namespace: tuple[str, ...], key: str) -> str:
    """The app's id of the item's source, as forget takes it."""
    return f"{RECORD_ID}/{item_id(namespace, key)}"
