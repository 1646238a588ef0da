"""An export's vectors file (graph/vector_format.py), read page by page: a memory space's nodes label by label in id
order (the cursor is the label and the last id: each page is an index range scan, whatever the space's size)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import neo4j

from engram.embedder_identity import EmbedderIdentity
from engram.vectors_header import HEADER_KEY
from graph.cypher import load
from graph.embedder_record import space_embedder
from graph.vector_format import (
    FORMAT_VERSION,
    LABELS,
    LOCAL_SPACE_PROPERTIES,
    encode_properties,
    encode_vector,
)

ProgressFn = Callable[[int, int], None]  # (nodes written, nodes in all)


class ExportRefused(ValueError):
    """Nothing to export, or vectors that cannot be exported as one embedder's."""


@dataclass
class VectorPage:
    lines: list[str]  # JSONL lines, the header first on the first page
    nodes: int
    total_nodes: int
    cursor: str | None  # "<label>:<last id>" to pass on; None after the last page


def statement(name: str, label: str) -> str:
    if label not in LABELS:
        raise ValueError(f"unknown label {label!r}")
    return load(f"vectors/{name}").replace("{label}", label)


def parse_cursor(cursor: str | None) -> tuple[int, str]:
    """(label index, last id) of a cursor; ValueError for one this export did not hand out."""
    if cursor is None:
        return 0, ""
    label, sep, last = cursor.partition(":")
    if not sep or label not in LABELS:
        raise ValueError(f"after: {cursor!r} is not a cursor of a vectors export")
    return LABELS.index(label), last


class VectorExporter:
    def __init__(self, driver: neo4j.Driver, database: str) -> None:
        self._driver = driver
        self._database = database

    def _read(self, query: str, **params: Any) -> list[neo4j.Record]:
        records, _, _ = self._driver.execute_query(
            query, params, database_=self._database, routing_=neo4j.RoutingControl.READ
        )
        return records

    def header(self, space: str, server: EmbedderIdentity) -> dict[str, Any]:
        """The header line's fields: the space's recorded embedder (the server's for a space written before spaces
        recorded theirs); ExportRefused when the space is being re-embedded (its vectors are mixed)."""
        found = space_embedder(self._driver, self._database, space)
        if found.reembed_to is not None:
            raise ExportRefused(f"space {space!r} is being re-embedded: finish it (engram reembed) before exporting")
        embedder = found.recorded or server
        return {HEADER_KEY: FORMAT_VERSION, "space": space, "embedder": embedder.properties(),
                "dimensions": embedder.dimensions}  # fmt: skip

    def total(self, space: str) -> int:
        """Nodes to export; ExportRefused when the memory holds nothing but its Space node."""
        counts = {label: int(self._read(statement("count_nodes", label), space=space)[0]["n"]) for label in LABELS}
        if not sum(n for label, n in counts.items() if label != "Space"):
            raise ExportRefused(f"nothing to export: {space!r} holds no memory")
        return sum(counts.values())

    def page(
        self, space: str, server: EmbedderIdentity, after: str | None, limit: int, total: int | None = None
    ) -> VectorPage:
        """Up to `limit` nodes after the cursor (the header line first when `after` is None); `total`: the count
        of a page before, not counted again."""
        index, last = parse_cursor(after)
        lines = [json.dumps(self.header(space, server))] if after is None else []
        total = self.total(space) if total is None else total
        nodes = 0
        cursor: str | None = None
        while index < len(LABELS) and nodes < limit:
            label = LABELS[index]
            rows = self._read(statement("export_page", label), space=space, after=last, limit=limit - nodes,
                              labels=list(LABELS))  # fmt: skip
            for row in rows:
                lines.append(json.dumps(node_line(label, row), ensure_ascii=False))
            nodes += len(rows)
            if rows:
                last = rows[-1]["id"]
                cursor = f"{label}:{last}"
            if nodes < limit:
                index, last = index + 1, ""
        done = index >= len(LABELS)
        return VectorPage(lines, nodes, total, None if done else cursor or f"{LABELS[index]}:{last}")

    def write(
        self, space: str, server: EmbedderIdentity, path: Path, page: int = 2000, progress: ProgressFn | None = None
    ) -> int:
        """The whole vectors file of `space` at `path` (written beside it and renamed: never half a file); the
        number of nodes."""
        partial = path.with_name(path.name + ".partial")
        after: str | None = None
        total: int | None = None
        nodes = 0
        with partial.open("w", encoding="utf-8") as out:
            while True:
                current = self.page(space, server, after, page, total)
                total = current.total_nodes
                out.writelines(line + "\n" for line in current.lines)
                nodes += current.nodes
                if progress:
                    progress(nodes, total)
                if current.cursor is None:
                    break
                after = current.cursor
        partial.replace(path)
        return nodes


def node_line(label: str, row: neo4j.Record) -> dict[str, Any]:
    props = dict(row["props"])
    if label == "Space":
        for name in LOCAL_SPACE_PROPERTIES:
            props.pop(name, None)
    line: dict[str, Any] = {"label": label, "id": row["id"], "props": encode_properties(props)}
    if row["embedding"] is not None:
        line["embedding"] = encode_vector(row["embedding"])
    line["out"] = [[t, to_label, to_id, encode_properties(p)] for t, to_label, to_id, p in row["out"]]
    return line
