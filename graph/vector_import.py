"""Loading an export's vectors file (graph/vector_format.py) into an empty memory space: no model, no extraction.

Three passes over the file. The first validates all of it (header, every line's label, id, properties, vector
length and values, relationship names and that every relationship ends at a node of the file) and refuses the file,
naming the line and field, before anything is written. The second writes the nodes, the third the relationships,
in large UNWIND batches on `writers` threads (the file's ids are the write path's, so the graph is the one the
exporting space held: the one ingestion built). Then the space's own indexes are made and brought online
(graph/space_indexes.py `dedicate`, for a space past its threshold) and every index is awaited before the import
reports done. The space is marked while the import runs: a run stopped part-way is resumed by running it again
(every write MERGEs on the (space, id) constraints).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import neo4j

from engram.embedder_identity import EmbedderIdentity
from engram.vectors_header import HEADER_KEY
from graph.cypher import load
from graph.params import vector_param
from graph.reads import timed
from graph.space_indexes import INDEX_ONLINE_TIMEOUT_S, dedicate
from graph.vector_format import LABELS, LOCAL_SPACE_PROPERTIES, RELATIONSHIP, decode_properties, decode_vector

NODE_BATCH = 2_000
RELATIONSHIP_BATCH = 10_000
Batch = tuple[str, list[dict[str, Any]]]  # a statement and its rows
ProgressFn = Callable[[str, int], None]  # (stage: nodes / relationships, how many written so far)


class VectorsFileError(ValueError):
    """The file cannot be imported here; the message names the line and field, or the mismatch."""


@dataclass
class VectorHeader:
    space: str
    embedder: EmbedderIdentity
    dimensions: int


@dataclass
class VectorImportReport:
    nodes: dict[str, int] = field(default_factory=dict)
    relationships: int = 0
    resumed: bool = False
    dedicated: bool = False  # the space got (and brought online) indexes of its own
    seconds: dict[str, float] = field(default_factory=dict)  # validate, nodes, relationships, indexes


def read_header(path: Path) -> VectorHeader:
    with path.open("r", encoding="utf-8") as handle:
        first = handle.readline()
    try:
        row = json.loads(first)
        if not isinstance(row, dict) or row.get(HEADER_KEY) != 1:
            raise VectorsFileError(f"line 1: not the header of a vectors export ({HEADER_KEY}: 1)")
        embedder = EmbedderIdentity.of(row["embedder"])
        dimensions = int(row["dimensions"])
        return VectorHeader(str(row["space"]), embedder, dimensions)
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, VectorsFileError):
            raise
        raise VectorsFileError(f"line 1 (header): {type(exc).__name__}: {exc}") from exc


def _lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open("r", encoding="utf-8") as handle:
        handle.readline()
        for number, text in enumerate(handle, start=2):
            if text.strip():
                yield number, json.loads(text)


class VectorImporter:
    def __init__(self, driver: neo4j.Driver, database: str, space: str, embedder: EmbedderIdentity, writers: int = 2):
        """`embedder`: this process's (the space's vectors must be of its family, or recall would refuse them)."""
        self._driver = driver
        self._database = database
        self._space = space
        self._embedder = embedder
        self._writers = writers

    def check(self, path: Path) -> tuple[VectorHeader, str]:
        """The file's header and digest, once every line is valid and the file may load into this space; else
        VectorsFileError, with nothing written."""
        header = read_header(path)
        if header.space != self._space:
            raise VectorsFileError(
                f"the file is an export of memory space {header.space!r}, not {self._space!r}: its ids are that "
                "space's; import it there, or import the export's JSONL (without vectors) to derive the graph anew"
            )
        if header.dimensions != self._embedder.dimensions:
            raise VectorsFileError(
                f"the file's vectors have {header.dimensions} dimensions; this embedder's have "
                f"{self._embedder.dimensions}"
            )
        if header.embedder.family != self._embedder.family:
            raise VectorsFileError(
                f"the file's vectors come from embedder {header.embedder.describe()}; this process embeds with "
                f"{self._embedder.describe()}: import with the file's embedder settings (then `engram reembed`), or "
                "import the export's JSONL (without vectors) to embed anew"
            )
        digest = self._validate(path, header)
        state = self._driver.execute_query(
            load("vectors/import_state"), space=self._space, database_=self._database,
            routing_=neo4j.RoutingControl.READ,
        ).records[0]  # fmt: skip
        if state["holds"] and state["pending"] != digest:
            raise VectorsFileError(
                f"memory space {self._space!r} is not empty: an export with vectors loads into an empty space only "
                "(forget it first, or import the JSONL without vectors)"
            )
        return header, digest

    def _validate(self, path: Path, header: VectorHeader) -> str:
        digest = hashlib.sha256(path.read_bytes()[: 1 << 20] + str(path.stat().st_size).encode()).hexdigest()[:20]
        seen: set[tuple[str, str]] = set()
        pending: dict[tuple[str, str], int] = {}  # relationship ends not seen yet -> the first line naming one
        for number, row in _safe_lines(path):
            where = f"line {number}"
            if not isinstance(row, dict):
                raise VectorsFileError(f"{where}: not a JSON object")
            label, node_id = row.get("label"), row.get("id")
            if label not in LABELS:
                raise VectorsFileError(f"{where}: label {label!r} is not one of {', '.join(LABELS)}")
            if not isinstance(node_id, str) or not node_id:
                raise VectorsFileError(f"{where}: id must be a non-empty string")
            props = row.get("props")
            if not isinstance(props, dict) or props.get("space") != self._space or props.get("id") != node_id:
                raise VectorsFileError(f"{where} (id {node_id!r}): props must be a map naming this space and id")
            try:
                decode_properties(props)
            except (ValueError, TypeError) as exc:
                raise VectorsFileError(f"{where} (id {node_id!r}): a property {exc}") from exc
            if "embedding" in row:
                try:
                    decode_vector(row["embedding"], header.dimensions)
                except (ValueError, TypeError, UnicodeEncodeError) as exc:
                    raise VectorsFileError(f"{where} (id {node_id!r}): embedding {exc}") from exc
            seen.add((label, node_id))
            pending.pop((label, node_id), None)
            for item in row.get("out", []):
                if not (isinstance(item, list) and len(item) == 4 and isinstance(item[0], str)
                        and RELATIONSHIP.match(item[0]) and item[1] in LABELS and isinstance(item[2], str)
                        and isinstance(item[3], dict)):  # fmt: skip
                    raise VectorsFileError(f"{where} (id {node_id!r}): out: {item!r} is not [TYPE, label, id, props]")
                if (item[1], item[2]) not in seen:
                    pending.setdefault((item[1], item[2]), number)
        if pending:
            (label, node_id), number = next(iter(pending.items()))
            raise VectorsFileError(f"line {number}: a relationship ends at {label} {node_id!r}, which the file lacks")
        return digest

    def run(self, path: Path, progress: ProgressFn | None = None) -> VectorImportReport:
        report = VectorImportReport()
        mark = time.perf_counter()
        header, digest = self.check(path)
        report.seconds["validate"] = round(time.perf_counter() - mark, 3)
        report.resumed = bool(
            self._driver.execute_query(
                load("vectors/import_state"), space=self._space, database_=self._database
            ).records[0]["pending"]
        )
        self._driver.execute_query(
            load("vectors/import_started"), space=self._space, export_digest=digest, database_=self._database
        )
        mark = time.perf_counter()
        self._write(self._node_batches(path, header, report), "nodes", progress)
        report.seconds["nodes"] = round(time.perf_counter() - mark, 3)
        mark = time.perf_counter()
        report.relationships = self._write(self._relationship_batches(path), "relationships", progress)
        report.seconds["relationships"] = round(time.perf_counter() - mark, 3)
        mark = time.perf_counter()
        report.dedicated = dedicate(self._driver, self._database, self._space)
        with self._driver.session(database=self._database) as session:
            session.run(timed(load("migrations/await_indexes"), INDEX_ONLINE_TIMEOUT_S)).consume()
        self._driver.execute_query(load("vectors/import_finished"), space=self._space, database_=self._database)
        report.seconds["indexes"] = round(time.perf_counter() - mark, 3)
        return report

    def _node_batches(self, path: Path, header: VectorHeader, report: VectorImportReport) -> Iterator[Batch]:
        batches: dict[str, list[dict[str, Any]]] = {}
        for _, row in _lines(path):
            rows = batches.setdefault(row["label"], [])
            embedding = row.get("embedding")
            props = decode_properties(row["props"])
            if row["label"] == "Space":  # the target's running state is its own
                props = {k: v for k, v in props.items() if k not in LOCAL_SPACE_PROPERTIES}
            rows.append({
                "id": row["id"], "props": props,
                "embedding": vector_param(decode_vector(embedding, header.dimensions)) if embedding else None,
            })  # fmt: skip
            report.nodes[row["label"]] = report.nodes.get(row["label"], 0) + 1
            if len(rows) >= NODE_BATCH:
                yield self.node_statement(row["label"]), batches.pop(row["label"])
        for label, rows in batches.items():
            yield self.node_statement(label), rows

    def _relationship_batches(self, path: Path) -> Iterator[Batch]:
        batches: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
        for _, row in _lines(path):
            for kind, to_label, to_id, props in row.get("out", []):
                key = (kind, row["label"], to_label)
                rows = batches.setdefault(key, [])
                rows.append({"a": row["id"], "b": to_id, "props": decode_properties(props)})
                if len(rows) >= RELATIONSHIP_BATCH:
                    yield _relationship_statement(*key), batches.pop(key)
        for key, rows in batches.items():
            yield _relationship_statement(*key), rows

    def _write(self, batches: Iterator[Batch], stage: str, progress: ProgressFn | None) -> int:
        """Each batch in a transaction of its own, `writers` at a time; the number of rows written."""
        written = 0
        futures: dict[Future[None], int] = {}
        with ThreadPoolExecutor(self._writers, thread_name_prefix="engram-vectors") as pool:
            for query, rows in batches:
                futures[pool.submit(self._run, query, rows)] = len(rows)
                while len(futures) > 2 * self._writers:
                    done, _ = wait(futures, return_when=FIRST_COMPLETED)
                    for future in done:
                        future.result()  # a failed batch stops the import here
                        written += futures.pop(future)
                    if progress:
                        progress(stage, written)
            for future in list(futures):
                future.result()
                written += futures.pop(future)
        if progress:
            progress(stage, written)
        return written

    @staticmethod
    def node_statement(label: str) -> str:
        """The statement writing a batch of nodes of `label` (one of LABELS) with their vectors."""
        if label not in LABELS:
            raise ValueError(f"unknown label {label!r}")
        return load("vectors/write_nodes").replace("{label}", label)

    def _run(self, query: str, rows: list[dict[str, Any]]) -> None:
        with self._driver.session(database=self._database) as session:
            session.execute_write(lambda tx: tx.run(query, space=self._space, rows=rows).consume())


def _safe_lines(path: Path) -> Iterator[tuple[int, Any]]:
    with path.open("r", encoding="utf-8") as handle:
        handle.readline()
        for number, text in enumerate(handle, start=2):
            if not text.strip():
                continue
            try:
                yield number, json.loads(text)
            except json.JSONDecodeError as exc:
                raise VectorsFileError(f"line {number}: not JSON ({exc.msg})") from exc


def _relationship_statement(kind: str, start: str, end: str) -> str:
    return load("vectors/write_relationships").replace("{type}", kind).replace("{from}", start).replace("{to}", end)
