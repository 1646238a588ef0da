"""The vectors file of an export (`engram export --vectors`, docs/embedding.md "Exports with vectors"): JSONL, a
header line, then one line per node of the memory space with its properties, its vector and the relationships it
starts. Ids are the write path's (they hash the space's name), so the file loads back into the space it came from.

    {"engram_vectors_export": 1, "space": "my-app", "embedder": {...}, "dimensions": 384}
    {"label": "Proposition", "id": "prop_...", "props": {...}, "embedding": "<base64>", "out": [["MENTIONS",
     "Concept", "con_...", {}], ...]}

Vectors are base64 of little-endian float32 (what Neo4j stores); times are {"$time": kind, "iso": ...}.
"""

from __future__ import annotations

import base64
import math
import re
from typing import Any

import neo4j.time
import numpy as np
from numpy.typing import NDArray

FORMAT_VERSION = 1
# Node labels with the (space, id) constraint, in export order; relationship types of a memory graph.
LABELS = ("Space", "Source", "Episode", "Proposition", "Concept", "Intent", "Prescription", "Dimension")
RELATIONSHIP = re.compile(r"^[A-Z][A-Z_]{0,39}$")  # written into Cypher: only plain upper-case names
# Space properties of the space's running state, not its memory: indexes, runs under way, API keys minted (keys are
# not exported); the target keeps its own.
LOCAL_SPACE_PROPERTIES = (
    "own_index_labelling", "own_indexes_ready", "reembed_to", "reembed_cursor", "import_pending", "keys_minted",
)  # fmt: skip
_TIMES: dict[str, Any] = {
    "datetime": neo4j.time.DateTime, "date": neo4j.time.Date, "time": neo4j.time.Time,
}  # fmt: skip


def encode_vector(vector: Any) -> str:
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def decode_vector(text: str, dimensions: int) -> NDArray[np.float32]:
    """The vector, or ValueError saying why not (its length, non-finite values)."""
    raw = base64.b64decode(text.encode("ascii"), validate=True)
    if len(raw) != 4 * dimensions:
        raise ValueError(f"has {len(raw) / 4:g} dimensions, the file's header says {dimensions}")
    vector = np.frombuffer(raw, dtype="<f4")
    if not np.isfinite(vector).all():
        raise ValueError("holds a value that is not a finite number")
    return vector.astype(np.float32)


def encode_value(value: Any) -> Any:
    for kind, cls in _TIMES.items():
        if isinstance(value, cls):
            return {"$time": kind, "iso": value.iso_format()}
    if isinstance(value, list):
        return [encode_value(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return {"$float": repr(value)}
    return value


def decode_value(value: Any) -> Any:
    if isinstance(value, dict):
        if "$time" in value and value["$time"] in _TIMES:
            return _TIMES[value["$time"]].from_iso_format(value["iso"])
        if "$float" in value:
            return float(value["$float"])
        raise ValueError(f"is a map ({sorted(value)}), which no node property holds")
    if isinstance(value, list):
        return [decode_value(v) for v in value]
    return value


def encode_properties(props: dict[str, Any]) -> dict[str, Any]:
    return {k: encode_value(v) for k, v in props.items()}


def decode_properties(props: dict[str, Any]) -> dict[str, Any]:
    return {k: decode_value(v) for k, v in props.items()}
