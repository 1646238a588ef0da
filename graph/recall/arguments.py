"""Recall's and associate's arguments, declared once: what each means and its bounds.

The request models (graph/recall/models.py `RecallRequest`, graph/recall/associate/models.py `AssociateRequest`) take
their fields from here, and so does every door: the GraphQL arguments' descriptions (and through the schema both
generated clients), MCP's tool parameters and the CLI's options. A door that leaves an argument out sends nothing and
the engine's default applies (graph/recall/config.py, ENGRAM_RECALL_*), so no door restates a default or a bound.

Bounds are checked once, by `out_of_bounds`, on the server: every door shows its message as it is ("tokenBudget must
be between 16 and 32768, got 40000"), so a user sees the same words whichever door they came through.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pydantic import Field


class MemoryType(StrEnum):
    EPISODIC = "episodic"  # what happened: episodes
    SEMANTIC = "semantic"  # knowing that: propositions
    PROCEDURAL = "procedural"  # knowing how: prescriptions


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


@dataclass(frozen=True)
class Argument:
    """One argument of a memory read. `name` is the request model's (snake_case); the API's is its camelCase."""

    name: str
    description: str
    minimum: float | None = None  # a number's least value, a text's least length
    maximum: float | None = None  # a number's greatest value, a text's greatest length
    text: bool = False  # bounds are on the length
    default: str | None = None  # where the default comes from, when it is the server's
    required: bool = False

    @property
    def api_name(self) -> str:
        return camel(self.name)

    def bounds(self) -> str:
        if self.minimum is None and self.maximum is None:
            return ""
        if self.text:
            return f"at most {_number(self.maximum)} characters" if self.maximum is not None else ""
        return f"{_number(self.minimum)} to {_number(self.maximum)}"

    def help(self) -> str:
        """The description with its bounds and default, as every door shows it."""
        notes = [part for part in (self.bounds(), f"default: {self.default}" if self.default else "") if part]
        return f"{self.description} ({'; '.join(notes)})" if notes else self.description

    def field(self, **extra: Any) -> Any:
        """A pydantic field bounded as declared: optional unless required; `extra` may give another default and
        description (a configured default's)."""
        extra.setdefault("description", self.description)
        if not self.required:
            extra.setdefault("default", None)
        if self.text:
            return Field(min_length=1, max_length=_int(self.maximum), **extra)
        return Field(ge=self.minimum, le=self.maximum, **extra)

    def problem(self, value: Any) -> str | None:
        """The message for a value outside the bounds, None for one inside (or no value)."""
        if value is None:
            return None
        if self.text:
            length = len(value)
            if self.maximum is not None and length > self.maximum:
                return f"{self.api_name} must be {self.bounds()}, got {length}"
            if not str(value).strip():
                return f"{self.api_name} must contain at least one non-space character"
            return None
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            bounds = f"between {_number(self.minimum)} and {_number(self.maximum)}"
            return f"{self.api_name} must be {bounds}, got {_number(value)}"
        return None


def _number(value: float | None) -> str:
    """A bound or value as a user typed it: 32768, not 32768.0 or 3.3e+04; 0.375 as it is."""
    if value is None:
        return "none"
    return str(int(value)) if float(value).is_integer() else str(value)


def _int(value: float | None) -> int | None:
    return None if value is None else int(value)


@dataclass(frozen=True)
class OutOfBounds:
    argument: Argument
    value: Any
    message: str

    @property
    def over(self) -> bool:
        """Above the greatest allowed (a budget the server will not give), rather than malformed."""
        maximum = self.argument.maximum
        size = len(self.value) if self.argument.text else self.value
        return maximum is not None and size > maximum


def named_only(values: Mapping[str, Any]) -> dict[str, Any]:
    """The values a caller named: a door leaves the others out of its request, so the server's defaults apply."""
    return {name: value for name, value in values.items() if value is not None}


def out_of_bounds(arguments: Mapping[str, Argument], values: Mapping[str, Any]) -> list[OutOfBounds]:
    """Each named value outside its argument's bounds, in the arguments' order."""
    found = []
    for name, argument in arguments.items():
        message = argument.problem(values.get(name))
        if message is not None:
            found.append(OutOfBounds(argument, values[name], message))
    return found


QUERY = Argument("query", "a question or a topic", maximum=2_000, text=True, required=True)
MEMORY_TYPES = Argument(
    "memory_types",
    "which memories: episodic, semantic and/or procedural",
    default="the router reads the question and decides",
)
TOKEN_BUDGET = Argument(
    "token_budget", "most tokens the returned items take", 16, 32_768, default="ENGRAM_RECALL_TOKEN_BUDGET, 1024"
)
HOP_LIMIT = Argument("hop_limit", "most hops through the graph", 1, 4, default="ENGRAM_RECALL_HOP_LIMIT, 2")
LIMIT = Argument("limit", "most items returned", 1, 200, default="ENGRAM_RECALL_LIMIT, 25")
AS_OF = Argument(
    "as_of",
    "recall what was true at this time in the world (ISO 8601): facts valid then, from their validFrom until their"
    " validTo (the times memory holds for them: remember's `at`, a record's timestamps, the dates statements name),"
    " and what had happened by then; not when the server recorded them (knownAt)",
)
KNOWN_AT = Argument(
    "known_at",
    "recall what memory knew at this time (ISO 8601): what the server had recorded by then and not yet replaced (its"
    " own clock); with asOf, both hold",
)
ASKER = Argument(
    "asker",
    'who asks, named as they speak in memory: the query\'s "I", "me", "my"',
    maximum=200,
    text=True,
    default="the user",
)
ADDRESSEE = Argument(
    "addressee", 'who is asked, named as they speak in memory: the query\'s "you", "your"', maximum=200, text=True
)
NOW = Argument(
    "now",
    'when the query is asked (ISO 8601): its relative times ("two weeks ago", "last weekend") are read against it',
    default="asOf, else the server's clock",
)
MIN_RELEVANCE = Argument(
    "min_relevance",
    "the bar the best item must reach: below it, no item and a reason; when it is reached, the ranking as usual,"
    " each item with its relevance",
    0,
    1,
    default="ENGRAM_RECALL_MIN_RELEVANCE",
)
RECIPE = Argument(
    "recipe",
    "a named recall recipe: default, fast (one hop, no late steps), thorough (wider, one more hop) or associate"
    " (further through associated concepts); docs/tuning.md",
    default="ENGRAM_RECALL_RECIPE",
)

RECALL_ARGUMENTS: dict[str, Argument] = {
    argument.name: argument
    for argument in (
        QUERY,
        MEMORY_TYPES,
        TOKEN_BUDGET,
        HOP_LIMIT,
        LIMIT,
        AS_OF,
        KNOWN_AT,
        ASKER,
        ADDRESSEE,
        NOW,
        MIN_RELEVANCE,
        RECIPE,
    )
}

UTTERANCE = Argument("utterance", "what the user just said", maximum=2_000, text=True, required=True)
ASSOCIATE_NOW = Argument(
    "now", 'when it is said, on the user\'s clock (ISO 8601): "tonight", "again" are read by it', default="now"
)
ASSOCIATE_LIMIT = Argument("limit", "most memories surfaced", 1, 50, default="10")
SPEAKER = Argument(
    "speaker",
    "who says it, named as they speak in memory: what they said before comes first",
    maximum=200,
    text=True,
)

ASSOCIATE_ARGUMENTS: dict[str, Argument] = {
    argument.name: argument for argument in (UTTERANCE, ASSOCIATE_NOW, ASSOCIATE_LIMIT, SPEAKER)
}
