"""Scopes inside a space: whose memory (`user`), which agent and which session wrote it, and the app's metadata.

A user's memory is a partition of the space: its own nodes, indexes, concepts, supersessions and statistics, stored
under a memory space key of its own (`memory_space`), so one user's recall, navigation, consolidation and forget can
never reach another's, and a recall among a thousand users scans that user's memory as if it were alone. `agent`,
`session` and `metadata` are labels on the sources and episodes of a memory: filters, never partitions.
"""

from __future__ import annotations

import hashlib
import math
import re
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from engram.ids import SPACE_NAME

MAX_METADATA_KEYS = 16
MAX_METADATA_STRING = 256
METADATA_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,39}$")
# Neo4j properties holding metadata: `meta_<key>` next to the node's own properties, which never start so.
METADATA_PREFIX = "meta_"
ScopeId = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$")]
MetadataValue = str | bool | int | float
# The memory space key of a user's partition: the space's name, '/', 16 hex digits. '/' is not allowed in a space's
# name, so no space anybody creates can take a partition's key.
_MEMORY_SPACE = re.compile(rf"{SPACE_NAME.pattern.rstrip('$')}(/[0-9a-f]{{16}})?$")


def memory_space(space: str, user: str | None) -> str:
    """Where a user's memory lives inside `space` (the space itself for its shared, user-less memory)."""
    if user is None:
        return space
    digest = hashlib.sha256("\x1f".join((space, user)).encode("utf-8")).hexdigest()[:16]
    return f"{space}/{digest}"


def validate_memory_space(key: str) -> str:
    """A space's name or one of its users' partitions (`memory_space`)."""
    if not _MEMORY_SPACE.match(key):
        raise ValueError(
            f"invalid space name {key!r}: 1-64 characters of a-z, 0-9, '_', '.', '-' (starting with a letter or "
            "digit), optionally followed by a user's partition, '/' and 16 hex digits"
        )
    return key


def parent_space(key: str) -> str:
    """The space a memory space key belongs to."""
    return key.split("/", 1)[0]


def check_metadata(metadata: dict[str, Any]) -> dict[str, MetadataValue]:
    """A flat map of at most MAX_METADATA_KEYS keys (letters, digits, '_'; 40 at most) to strings (at most
    MAX_METADATA_STRING characters), finite numbers or booleans. Raises ValueError naming the key at fault."""
    if len(metadata) > MAX_METADATA_KEYS:
        raise ValueError(f"{len(metadata)} metadata keys; at most {MAX_METADATA_KEYS}")
    for key, value in metadata.items():
        if not isinstance(key, str) or not METADATA_KEY.match(key):
            raise ValueError(f"metadata key {key!r}: 1-40 letters, digits or '_', starting with a letter")
        if isinstance(value, str):
            if len(value) > MAX_METADATA_STRING:
                raise ValueError(f"metadata {key!r}: {len(value)} characters; at most {MAX_METADATA_STRING}")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError(f"metadata {key!r}: numbers must be finite")
        elif not isinstance(value, bool | int):
            raise ValueError(f"metadata {key!r}: a string, a number or a boolean, not {type(value).__name__}")
    return dict(metadata)


def metadata_properties(metadata: dict[str, MetadataValue]) -> dict[str, MetadataValue]:
    """The Neo4j properties that hold `metadata` on a node."""
    return {f"{METADATA_PREFIX}{key}": value for key, value in metadata.items()}


def _metadata_map(value: Any) -> Any:
    if not isinstance(value, dict):
        raise ValueError("metadata must be an object of strings, numbers and booleans")
    return check_metadata(value)


# A metadata field: validated by `check_metadata` (pydantic reports its message at the field).
Metadata = Annotated[dict[str, MetadataValue], BeforeValidator(_metadata_map)]


class ScopeFields(BaseModel):
    """What a record, a remember or a filter may say of its scope (all optional)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    user: ScopeId | None = Field(default=None, description="whose memory: each user's is apart from the others'")
    agent: ScopeId | None = Field(default=None, description="the agent the memory was made with")
    session: ScopeId | None = Field(default=None, description="the app's session or run id")
    metadata: Metadata = Field(
        default_factory=dict,
        description=f"a flat map (at most {MAX_METADATA_KEYS} keys) of strings, numbers and booleans",
    )


class ScopeFilter(ScopeFields):
    """Exact-match filters, combined with AND (`user` chooses the partition; the others select inside it)."""

    def properties(self) -> dict[str, Any]:
        """The node properties a source or episode must have equal to match (empty: everything matches); the
        statements test `all(key IN keys($scope) WHERE e[key] = $scope[key])`."""
        labels = {"agent": self.agent, "session": self.session}
        return {**{k: v for k, v in labels.items() if v is not None}, **metadata_properties(self.metadata)}
