"""Warming recall before it serves: every statement recall sends, planned by Neo4j ahead of the first query.

Measured (docs/recall_latency.md): Neo4j plans a recall statement in 0.1-0.5 s on this machine (more under load),
and it plans each statement again for every combination of parameter types (a null `as_of` or a time) and of list
sizes by decade (1, 2-10, 11-100, 101-1000 items: the vector is one list of 384) it is given. A recall sends about
twenty statements, so the first recalls after the server's plan cache was emptied (a restart) or pruned (a plan
dropped when the data's statistics moved) paid seconds of planning; the first recalls of a new process also opened
a connection per parallel search. `warm_recall` calls each of the searcher's reads (graph/recall/neo4j_searcher.py, the
same methods recall calls, so the statements and parameters cannot drift apart) with inputs of each size decade recall
uses, against a space no one can create (its name is not a valid space name): nothing is read, every plan is made,
and the searches running side by side open the connections recall will use.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from itertools import product

from graph.aggregate.store import MatchQuery
from graph.recall.hits import ConceptHit, TimeWindow
from graph.recall.lucene import lucene_query
from graph.recall.models import ItemKind
from graph.recall.neo4j_searcher import GraphSearcher
from graph.recall.search_statements import SpaceSizes
from graph.recall.searcher import TextLabel

# Not a valid space name (a space in it): no tenant's data is ever read, and no write can create it.
WARM_SPACE = "engram warm-up"
# One list length in each decade Neo4j plans apart (its plan cache keys a list parameter by the decade of its length).
SIZES = (1, 5, 50, 500)
# The question time a request with `as_of` or `now` sends (its type matters to the plan cache, not its value).
AS_OF = datetime(2000, 1, 1, tzinfo=UTC)

# Label counts that send a searcher down the small-space paths (exact scans, full-text scoped to the space and
# rescored) and the large-space ones (the shared indexes, over-fetched), as space_size.cypher counts them.
SMALL = {"propositions": 10, "episodes": 10, "prescriptions": 10, "intents": 10, "concepts": 10, "pages": 1}
LARGE = {label: 1_000_000 for label in SMALL} | {"pages": 1}
_CHARS = {"proposition_chars": 60, "episode_chars": 200, "own_indexes": 0}

# Makes a searcher of `space` at `as_of` whose label counts are `sizes` (None: counted by the statement).
SearcherOf = Callable[[str, datetime | None, SpaceSizes | None], GraphSearcher]
Read = Callable[[], object]


@dataclass(frozen=True)
class WarmReport:
    calls: int  # searcher reads made (a read sends one statement or more)
    seconds: float


def _ids(prefix: str, n: int) -> list[str]:
    return [f"{prefix}-{i}" for i in range(n)]


def _words(n: int) -> str:
    """A full-text query of n distinct terms (lucene_query drops nothing from these)."""
    return lucene_query(" ".join(f"warmword{i}" for i in range(n)))


def _concepts(n: int) -> list[ConceptHit]:
    return [ConceptHit(f"concept-{i}", f"key {i}", 1.0, 1) for i in range(n)]


def _windows(n: int) -> list[TimeWindow]:
    day = timedelta(days=1)
    start = [AS_OF + i * day for i in range(n)]
    return [TimeWindow(t, t + 2 * day, t, t + day) for t in start]


def _match(vector: list[float], terms: int, speakers: Sequence[str] | None, windows: int | None) -> MatchQuery:
    spans = None if windows is None else [(w.start, w.end) for w in _windows(windows)]
    return MatchQuery(vector, [["warm"]] * terms, speakers, spans, 0.5, 0.7, 0.5, 0.5, 200)


def _tally_events(n: int) -> list[dict[str, object]]:
    return [{"id": f"p-{i}", "value": 1.0, "unit": "h"} for i in range(n)]


def size_independent_reads(searcher: GraphSearcher, vector: list[float]) -> list[Read]:
    """The reads whose statement does not depend on the space's size, at each list size recall sends them with
    (the sizes seen over 64 LongMemEval recalls: hundreds of items only where recall hydrates or looks up its
    candidates)."""
    s, v = searcher, vector
    aggregates = s.aggregates()
    reads: list[Read] = []
    labels: tuple[TextLabel, ...] = ("propositions", "episodes", "prescriptions")
    for n in SIZES:
        reads += [partial(s.hydrate, label, [(i, 0.5) for i in _ids(label, n)], v) for label in labels]
        reads.append(partial(s.earlier_versions, _ids("proposition", n)))
        reads.append(partial(s.current_versions, _ids("proposition", n)))
    reads.append(partial(s.subject_facts, "someone", v))
    for n in SIZES[:3]:
        reads += [
            partial(s.concepts_by_key, _ids("key", n)),
            partial(s.propagate, _concepts(n), 8),
            partial(s.expand, {f"concept-{i}": 1.0 for i in range(n)}, v, 4),
            partial(s.episode_context, {f"episode-{i}": i for i in range(n)}, v),
            partial(s.scored_episodes, [(episode_id, 0.5) for episode_id in _ids("episode", n)]),
            partial(s.entity_pages, {f"item-{i}": (i, ["key"]) for i in range(n)}, ["key"], v, 3, 10),
            partial(aggregates.tally, _tally_events(n), None),
        ]
    reads.append(partial(s.entity_pages, {}, _ids("key", 5), v, 3, 10))
    reads.append(partial(aggregates.tally, _tally_events(5), "month"))
    reads += [partial(aggregates.matching, _match(v, 5, sp, w)) for sp, w in product((None, ["User"]), (None, 1))]
    # The concepts of the top items and the embeddings of the head (fetched once per id: fresh ids each call).
    shapes = [*product((0, 5), (0, *SIZES), (0, *SIZES[:2])), (0, 0, 50)]
    for number, (ids, propositions, episodes) in enumerate(shapes):
        head = [(i, ItemKind.PROPOSITION) for i in _ids(f"top{number}-p", propositions)]
        head += [(i, ItemKind.EPISODE) for i in _ids(f"top{number}-e", episodes)]
        if ids or head:
            reads.append(partial(s.top_items, _ids("proposition", ids), head))
    return reads


def size_dependent_reads(searcher: GraphSearcher, vector: list[float]) -> list[Read]:
    """The searches whose statement depends on the space's size (exact scan or index, scoped full-text or not)."""
    s, v = searcher, vector
    reads: list[Read] = [partial(s.dense, label, v, 40) for label in ("propositions", "prescriptions", "intents")]
    reads.append(partial(s.dense_concepts, v, 10, 0.5))
    reads.append(partial(s.dense, "episodes", v, 40))
    # Some speakers' episodes closest to another vector than the unfiltered scan's (a named participant's search);
    # with the scan's vector a small space's search takes the scan's scores (scored_episodes, size-independent).
    other = [-x for x in v]
    reads += [partial(s.dense, "episodes", other, 40, speakers) for speakers in (["User"], _ids("speaker", 5))]
    labels: tuple[TextLabel, ...] = ("propositions", "episodes", "prescriptions")
    # Full-text queries of 1, 2-10 and 11-32 terms (a small space's rescoring sends one list item per term).
    reads += [partial(s.fulltext, label, _words(terms), 40) for label, terms in product(labels, (1, 5, 20))]
    reads += [partial(s.episodes_within, _windows(windows), v, 20) for windows in (1, 3)]
    reads += [partial(s.unmentioned, [f"Name{i}" for i in range(names)]) for names in (1, 3)]
    return reads


def warm_recall(searcher_of: SearcherOf, vector: list[float], threads: Executor) -> WarmReport:
    """Plans every statement recall sends, for a null and a set `as_of`, for a small and a large space, on `threads`
    (side by side, as recall's searches run). A read that fails is tried once more after the others; raises what it
    raised the second time (Neo4j down: readiness says so)."""
    started = time.perf_counter()
    reads: list[Read] = []
    for as_of in (None, AS_OF):
        counted = searcher_of(WARM_SPACE, as_of, None)  # space_size.cypher itself
        reads.append(counted.load_sizes)
        for number, sizes in enumerate((SMALL, LARGE)):
            preset = SpaceSizes(ttl_s=float("inf"))
            preset.get(WARM_SPACE, partial(dict, sizes | _CHARS))
            searcher = searcher_of(WARM_SPACE, as_of, preset)
            reads += size_dependent_reads(searcher, vector)
            if number == 0:
                reads += size_independent_reads(searcher, vector)
    futures = [threads.submit(read) for read in reads]
    failed = [read for read, future in zip(reads, futures, strict=True) if future.exception() is not None]
    for read in failed:  # once more, alone: a read the loaded server refused for a moment (a bookmark not yet there)
        read()
    return WarmReport(calls=len(reads), seconds=round(time.perf_counter() - started, 3))
