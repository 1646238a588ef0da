"""An in-memory `Searcher` (graph/recall/searcher.py): the recall steps and engine under unit test, without services.

`MemoryGraph` holds one space's nodes as plain dataclasses and embeds texts as they are added; `MemorySearcher`
answers every operation of the protocol as its Cypher statement under cypher/recall/ does for a small space (the exact
scans, and full-text hits scored with the space's own term statistics, graph/recall/bm25.py): cosine on Neo4j's scale
((1 + cosine) / 2, as `vector.similarity.cosine`), ties broken by id, an episode hit carrying its knowledge
(episode_knowledge.cypher), superseded knowledge kept out unless `as_of` is before it expired. Where it differs from
the statements is listed at `MemorySearcher`.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from engram.extraction.keyphrases import title_key
from graph.recall.bm25 import (
    AnalysedText,
    TermStatistics,
    analyze,
    bm25_scores,
    distinctive_coverage,
    distinctive_weights,
)
from graph.recall.hits import ConceptHit, Hit, TimeWindow, WindowHits
from graph.recall.lucene import one_edit_apart, query_terms
from graph.recall.models import ItemKind
from graph.recall.searcher import Label, TextLabel

Vector = NDArray[np.float32]
Embed = Callable[[Sequence[str]], NDArray[np.float32]]  # texts -> one row each (an embedder's `encode`)
Similarity = Callable[[Vector | None], float | None]
Given = Sequence[float] | NDArray[np.floating[Any]] | None  # an embedding given instead of embedding the text

EPOCH = datetime(2024, 1, 1, tzinfo=UTC)
MERGE_DEPTH = (
    8  # (current)-[:SUPERSEDES*0..8 {reason: 'merge'}]->(node): a merged statement's hit counts for its survivor
)
# Supersessions after which the survivor stands for the replaced statement: it gains its proofs and concepts
# (graph/consolidation/duplicates.py CARRYING_REASONS, supersede.cypher's `carry`).
CARRYING_REASONS = ("merge", "updated", "correction")
# Links a hit follows to the current proposition (the recall statements' access path: a merge, or an update that
# carries its proofs). A revision (an update that does not carry: consolidation's revisions step) is not followed:
# the replaced statement stays a candidate (recall/candidate_proposition.cypher).
ACCESS_REASONS = ("merge", "updated")


@dataclass
class Source:
    id: str
    title_key: str | None = None  # set: a document that is the page of the concept with this key (schema 0010)
    recorded_at: datetime = EPOCH
    episodes: list[str] = field(default_factory=list)  # (Episode)-[:PART_OF]->(Source), in NEXT order


@dataclass
class Episode:
    id: str
    source_id: str
    text: str
    embedding: Vector | None
    seq: int  # its place in its source: (previous)-[:NEXT]->(this)
    speaker: str | None = None
    external_id: str | None = None
    occurred_at: datetime | None = None
    recorded_at: datetime = EPOCH


@dataclass
class Proposition:
    id: str
    text: str
    embedding: Vector | None
    episodes: list[str]  # -[:PROVEN_BY]->(Episode)
    concepts: list[str]  # -[:MENTIONS]->(Concept), by concept id
    confidence: float | None = None
    importance: float | None = None
    valid_from: datetime | None = None
    recorded_at: datetime = EPOCH
    status: str = "active"  # "superseded" once replaced
    expired_at: datetime | None = None
    superseded_by: str | None = None
    valid_to: datetime | None = None  # a revised value: when the revision's value began (revisions.py)
    # An atomic fact's fields (engram/facts/): whose attribute, which (slot and frame), its value, state or event.
    subject: str = ""
    slot: str = ""
    frame: str = ""
    value: str = ""
    value_type: str = ""
    event: bool = False


@dataclass
class Concept:
    id: str
    key: str
    embedding: Vector | None
    aliases: set[str] = field(default_factory=set)  # -[:SAME_AS]-(Concept), either way, by concept id


@dataclass
class Intent:
    id: str
    text: str
    embedding: Vector | None


@dataclass
class Prescription:
    id: str
    text: str
    terms: str  # what its full-text search reads (schema 0007)
    embedding: Vector | None
    episodes: list[str]  # -[:PROVEN_BY]->(Episode)
    intent: str | None  # -[:SOLVES]->(Intent)
    return_score: float | None = 5.5  # 1-10; importance (return_score - 1) / 9
    status: str = "active"
    recorded_at: datetime = EPOCH


def _utc(value: datetime | None) -> datetime | None:
    """Times as the graph keeps them: zoned; a naive time is taken as UTC."""
    return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


def _world_time(node: Episode | Proposition | Source) -> datetime:
    """When a node happened in the world, as the recall statements read it: coalesce(occurred_at, valid_from,
    created_at, recorded_at)."""
    world = getattr(node, "occurred_at", None) or getattr(node, "valid_from", None) or getattr(node, "created_at", None)
    return _utc(world) or node.recorded_at


def _unused(nodes: dict[str, Any], node_id: str) -> None:
    if node_id in nodes:
        raise ValueError(f"{node_id!r} was added already")


class MemoryGraph:
    """One space's memory. Texts are embedded with `embed` as they are added (a given `embedding` wins; without
    either a node has none, and no vector search finds it). What is added is recorded at `now` unless told otherwise:
    set `now` between additions to give them times for `as_of`. Ids are unique per label: adding one twice is an
    error."""

    def __init__(self, embed: Embed | None = None, space: str = "test", now: datetime = EPOCH) -> None:
        self.space = space
        self.now = now
        self._embed = embed
        self.sources: dict[str, Source] = {}
        self.episodes: dict[str, Episode] = {}
        self.propositions: dict[str, Proposition] = {}
        self.concepts: dict[str, Concept] = {}  # by id
        self.intents: dict[str, Intent] = {}
        self.prescriptions: dict[str, Prescription] = {}
        self.associations: dict[frozenset[str], float] = {}  # {a, b} concept ids -> ASSOCIATED count (co-mentions)
        self.supersedes: dict[str, list[tuple[str, str, bool]]] = {}  # replaced id -> [(survivor id, reason, carry)]
        # Reverse links, kept as the nodes are added.
        self.proven: dict[str, list[str]] = {}  # episode id -> proposition ids proven by it
        self.prescribed: dict[str, list[str]] = {}  # episode id -> prescription ids proven by it
        self.mentioned: dict[str, list[str]] = {}  # concept id -> proposition ids mentioning it
        self.solving: dict[str, list[str]] = {}  # intent id -> prescription ids solving it
        self.keys: dict[str, str] = {}  # concept key -> concept id

    def _vector(self, text: str, given: Given) -> Vector | None:
        if given is not None:
            return np.asarray(given, dtype=np.float32)
        if self._embed is None:
            return None
        return np.asarray(self._embed([text])[0], dtype=np.float32)

    def add_source(
        self, source_id: str, *, page_title: str | None = None, recorded_at: datetime | None = None
    ) -> Source:
        """A source; with `page_title`, a document that is the page of the concept its title names (`title_key`)."""
        source = self.sources.setdefault(source_id, Source(source_id))  # one `add_episode` made keeps its episodes
        source.title_key = (title_key(page_title) if page_title else None) or None
        source.recorded_at = _utc(recorded_at) or self.now
        return source

    def add_episode(
        self,
        episode_id: str,
        text: str,
        *,
        source: str = "source",
        speaker: str | None = None,
        occurred_at: datetime | None = None,
        external_id: str | None = None,
        recorded_at: datetime | None = None,
        embedding: Given = None,
    ) -> Episode:
        """An episode at the end of `source` (created if new): NEXT from the one added before it there."""
        _unused(self.episodes, episode_id)
        owner = self.sources.get(source) or self.add_source(source, recorded_at=recorded_at)
        episode = Episode(
            episode_id,
            source,
            text,
            self._vector(text, embedding),
            len(owner.episodes),
            speaker,
            external_id,
            _utc(occurred_at),
            _utc(recorded_at) or self.now,
        )
        owner.episodes.append(episode_id)
        self.episodes[episode_id] = episode
        return episode

    def add_concept(
        self,
        key: str,
        *,
        concept_id: str | None = None,
        embedding: Given = None,
    ) -> Concept:
        """The concept with `key` (id `concept:<key>` unless given); its key is what is embedded. Idempotent by key."""
        if key in self.keys:
            return self.concepts[self.keys[key]]
        concept = Concept(concept_id or f"concept:{key}", key, self._vector(key, embedding))
        self.concepts[concept.id] = concept
        self.keys[key] = concept.id
        return concept

    def concept(self, key: str) -> Concept:
        return self.concepts[self.keys[key]]

    def add_proposition(
        self,
        proposition_id: str,
        text: str,
        *,
        proven_by: Sequence[str] = (),
        concepts: Sequence[str] = (),
        confidence: float | None = None,
        importance: float | None = None,
        valid_from: datetime | None = None,
        recorded_at: datetime | None = None,
        status: str = "active",
        expired_at: datetime | None = None,
        embedding: Given = None,
        fact: dict[str, Any] | None = None,
    ) -> Proposition:
        """A statement proven by the episodes `proven_by`, mentioning the concepts `concepts` (keys; added if new);
        `fact`: its fact fields where it is one (subject, slot, frame, value, event)."""
        _unused(self.propositions, proposition_id)
        ids = [self.add_concept(key).id for key in dict.fromkeys(concepts)]
        proposition = Proposition(
            proposition_id,
            text,
            self._vector(text, embedding),
            list(dict.fromkeys(proven_by)),
            ids,
            confidence,
            importance,
            _utc(valid_from),
            _utc(recorded_at) or self.now,
            status,
            _utc(expired_at),
        )
        for name, value in (fact or {}).items():
            setattr(proposition, name, value)
        self.propositions[proposition_id] = proposition
        for episode_id in proposition.episodes:
            self.proven.setdefault(episode_id, []).append(proposition_id)
        for concept_id in ids:
            self.mentioned.setdefault(concept_id, []).append(proposition_id)
        return proposition

    def supersede(
        self, survivor: str, replaced: str, reason: str = "merge", at: datetime | None = None, carry: bool | None = None
    ) -> None:
        """`survivor` SUPERSEDES `replaced` (supersede.cypher): the replaced one's status becomes 'superseded' and it
        expires `at` (default `now`); with `carry` (default: after a merge, update or correction) the survivor gains
        its proofs and concepts. A revision is an update that does not carry (graph/consolidation/revisions.py)."""
        new, old = self.propositions[survivor], self.propositions[replaced]
        carry = reason in CARRYING_REASONS if carry is None else carry
        old.status, old.expired_at, old.superseded_by = "superseded", _utc(at) or self.now, survivor
        self.supersedes.setdefault(replaced, []).append((survivor, reason, carry))
        if reason in ("updated", "changed"):
            old.valid_to = new.valid_from
        if not carry:
            return
        for episode_id in old.episodes:
            if episode_id not in new.episodes:
                new.episodes.append(episode_id)
                self.proven.setdefault(episode_id, []).append(survivor)
        for concept_id in old.concepts:
            if concept_id not in new.concepts:
                new.concepts.append(concept_id)
                self.mentioned.setdefault(concept_id, []).append(survivor)

    def associate(self, a: str, b: str, count: float = 1.0) -> None:
        """ASSOCIATED {count} between the concepts with keys `a` and `b` (added if new); propagation weighs it
        count x idf(a) x idf(b)."""
        self.associations[frozenset((self.add_concept(a).id, self.add_concept(b).id))] = count

    def refresh_associations(self) -> None:
        """Every association as consolidation computes it (refresh_associations.cypher): the count of active
        propositions mentioning both concepts."""
        self.associations.clear()
        for proposition in self.propositions.values():
            if proposition.status != "active":
                continue
            for i, a in enumerate(proposition.concepts):
                for b in proposition.concepts[i + 1 :]:
                    pair = frozenset((a, b))
                    self.associations[pair] = self.associations.get(pair, 0.0) + 1.0

    def alias(self, a: str, b: str) -> None:
        """SAME_AS between the concepts with keys `a` and `b` (added if new)."""
        first, second = self.add_concept(a), self.add_concept(b)
        first.aliases.add(second.id)
        second.aliases.add(first.id)

    def add_intent(self, intent_id: str, text: str, *, embedding: Given = None) -> Intent:
        _unused(self.intents, intent_id)
        intent = Intent(intent_id, text, self._vector(text, embedding))
        self.intents[intent_id] = intent
        return intent

    def add_prescription(
        self,
        prescription_id: str,
        text: str,
        *,
        intent: str | None = None,
        proven_by: Sequence[str] = (),
        terms: str | None = None,
        return_score: float | None = 5.5,
        status: str = "active",
        recorded_at: datetime | None = None,
        embedding: Given = None,
    ) -> Prescription:
        """A procedure solving the intent `intent` (an id), drawn from the episodes `proven_by`; its full-text search
        reads `terms` (its text where not given)."""
        _unused(self.prescriptions, prescription_id)
        prescription = Prescription(
            prescription_id,
            text,
            text if terms is None else terms,
            self._vector(text, embedding),
            list(dict.fromkeys(proven_by)),
            intent,
            return_score,
            status,
            _utc(recorded_at) or self.now,
        )
        self.prescriptions[prescription_id] = prescription
        for episode_id in prescription.episodes:
            self.prescribed.setdefault(episode_id, []).append(prescription_id)
        if intent is not None:
            self.solving.setdefault(intent, []).append(prescription_id)
        return prescription

    def concept_stats(self) -> dict[str, tuple[int, float | None]]:
        """Concept id -> (df, idf) as consolidation computes them (refresh_concept_stats.cypher): df the active
        propositions mentioning it, idf log((active + 1) / df), none where df is 0."""
        active = sum(p.status == "active" for p in self.propositions.values())
        stats: dict[str, tuple[int, float | None]] = {}
        for concept_id in self.concepts:
            df = sum(self.propositions[p].status == "active" for p in self.mentioned.get(concept_id, []))
            stats[concept_id] = (df, math.log((active + 1) / df) if df else None)
        return stats


@lru_cache(maxsize=65_536)
def _analysed(text: str) -> AnalysedText:
    return AnalysedText.of(text)


def _iso(value: datetime | None) -> str | None:
    """A time as the statements hand it back (`toString`): ISO 8601, UTC as Z, a fraction without trailing zeros."""
    if value is None:
        return None
    text = value.replace(microsecond=0).isoformat()
    zone = "Z" if text.endswith("+00:00") else text[19:]
    fraction = f".{value.microsecond:06d}".rstrip("0") if value.microsecond else ""
    return text[:19] + fraction + zone


def _best(scored: Iterable[tuple[str, float]], k: int) -> list[tuple[str, float]]:
    """The k best (id, score), ties broken by id."""
    return sorted(scored, key=lambda s: (-s[1], s[0]))[:k]


def _half_up(value: float) -> int:
    return math.floor(value + 0.5)  # Cypher's round()


class MemorySearcher:
    """`Searcher` over a `MemoryGraph`, as of now (current knowledge) or `as_of` a past time.

    Where it differs from the Cypher statements (GraphSearcher):
    - Always the small-space path: exact vector scans (never an approximate index), full-text hits rescored with the
      space's own statistics; a full-text search scores every text that holds a query term (the statement scores a
      pool of 4 x k that Lucene chose by its own scores). A term matches a text when the text holds the term's
      analysed form (graph/recall/bm25.py `analyze`, close to Lucene's English analyzer, not it).
    - Prescriptions' full-text scores are BM25 over `terms` with the space's counts and lengths in characters, where
      Lucene scores them with the whole index's counts and its lengths in tokens: the values differ, and so may the
      order of texts of different lengths.
    - `queries` counts one statement an operation that issues one (and the sizes once), never the extra rounds of an
      over-fetch; two for `episodes_within` (stated, then told).
    - A node without an embedding (or a zero one) is left out of every search that ranks by closeness (pages and
      windows too, where Neo4j's null score would fail the row); in a row's similarity field it is None, as there.
    - A merged statement resolves to its nearest current survivor (a Cypher `LIMIT 1` over the path gives any).
    - Concept df/idf are computed from the graph as it is (as if consolidation had just run).
    - Rows Neo4j collects in no set order (expand's, concepts_by_key's, top_items' concepts, a context row's
      propositions) come in the order they are first reached.
    """

    def __init__(
        self,
        graph: MemoryGraph,
        as_of: datetime | None = None,
        distinctive_share: float = 0.0,
        known_at: datetime | None = None,
    ) -> None:
        self._graph = graph
        self._as_of = _utc(as_of)  # world time: what held then
        self._known_at = _utc(known_at)  # memory time: what memory had recorded by then
        # The largest share of the space's documents holding a query term for it to count as distinctive (0: none).
        self._distinctive_share = distinctive_share
        self.distinctive: dict[str, list[str]] = {}
        self.queries = 0
        self.hydrated: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()  # searches run in threads
        self._sizes: dict[str, int] | None = None
        self._vectors: dict[str, list[float] | None] = {}

    @property
    def space(self) -> str:
        return self._graph.space

    # -- bookkeeping ------------------------------------------------------------------------------------------------

    def _statement(self, count: int = 1) -> None:
        with self._lock:
            self.queries += count

    def _load(self) -> dict[str, int]:
        with self._lock:
            if self._sizes is None:
                self.queries += 1
                self._sizes = self._count()
            return self._sizes

    def _count(self) -> dict[str, int]:
        """space_size.cypher, uncapped."""
        g = self._graph

        def mean_chars(texts: list[str]) -> int:
            return _half_up(sum(map(len, texts)) / len(texts)) if texts else 0

        return {
            "propositions": len(g.propositions),
            "episodes": len(g.episodes),
            "prescriptions": len(g.prescriptions),
            "intents": len(g.intents),
            "concepts": len(g.concepts),
            "pages": int(any(s.title_key is not None for s in g.sources.values())),
            "own_indexes": 0,
            "proposition_chars": mean_chars([p.text for p in g.propositions.values()]),
            "episode_chars": mean_chars([e.text for e in g.episodes.values()]),
        }

    def load_sizes(self) -> None:
        self._load()

    def has_pages(self) -> bool:
        return self._load()["pages"] > 0

    # -- shared semantics -------------------------------------------------------------------------------------------

    def _known(self, node: Episode | Proposition | Source | Prescription) -> bool:
        """What had happened by `as_of` in the world (an episode's occurred_at, a statement's valid_from, else when it
        was recorded; a procedure is timeless) and memory had recorded by `known_at`."""
        world = None if isinstance(node, Prescription) else _world_time(node)
        return (self._as_of is None or world is None or world <= self._as_of) and (
            self._known_at is None or node.recorded_at <= self._known_at
        )

    def _recorded(self, node: Episode | Source) -> bool:
        """What memory had recorded by `known_at` (unmentioned.cypher: the names memory holds, whatever `as_of`)."""
        return self._known_at is None or node.recorded_at <= self._known_at

    def _current(self, p: Proposition) -> bool:
        """Current knowledge: active; with `as_of`, valid then (from its valid_from until its valid_to, or until it
        expired); with `known_at`, recorded by then and not yet expired (candidate_proposition.cypher)."""
        if self._as_of is None and self._known_at is None:
            return p.status == "active"
        end = p.valid_to or p.expired_at
        held = self._as_of is None or (
            (p.valid_from or p.recorded_at) <= self._as_of and (end is None or end > self._as_of)
        )
        known = self._known_at is None or (
            p.recorded_at <= self._known_at and (p.expired_at is None or p.expired_at > self._known_at)
        )
        return held and known

    def _candidate(self, p: Proposition) -> bool:
        """candidate_proposition.cypher: current knowledge, or a statement a revision replaced (known by `as_of`)."""
        revised = any(
            reason in ("updated", "changed") and not carry for _, reason, carry in self._graph.supersedes.get(p.id, [])
        )
        return self._current(p) or (revised and self._known(p))

    def _replaced(self, p: Proposition) -> bool:
        """hydrate_propositions.cypher: superseded as of `as_of`."""
        return (
            p.status == "superseded"
            and (self._as_of is None or (p.valid_to or p.expired_at or EPOCH) <= self._as_of)
            and (self._known_at is None or (p.expired_at or EPOCH) <= self._known_at)
        )

    def _resolve(self, p: Proposition) -> Proposition | None:
        """The candidate standing for `p`: itself, or the nearest survivor of a chain of merges and carrying updates
        (ACCESS_REASONS); a revision's replaced statement stands for itself."""
        frontier, seen = [p.id], {p.id}
        for _ in range(MERGE_DEPTH + 1):
            for node_id in frontier:
                node = self._graph.propositions[node_id]
                if self._candidate(node):
                    return node
            frontier = sorted(
                survivor
                for node_id in frontier
                for survivor, reason, carry in self._graph.supersedes.get(node_id, [])
                if reason in ACCESS_REASONS and carry and survivor not in seen and survivor in self._graph.propositions
            )
            seen.update(frontier)
        return None

    @staticmethod
    def _similarity(vector: Sequence[float]) -> Similarity:
        """`vector.similarity.cosine(x, vector)`: (1 + cosine) / 2, in float32 sums as Neo4j computes it (the same
        scores to 6 places); None for no embedding or a zero one."""
        query = np.asarray(vector, dtype=np.float32)
        query_norm = float(query @ query)

        def similarity(embedding: Vector | None) -> float | None:
            if embedding is None or query_norm == 0:
                return None
            norm = float(embedding @ embedding)
            if norm == 0:
                return None
            cosine = float(embedding @ query) / math.sqrt(norm * query_norm)
            return float(np.float32((1.0 + cosine) / 2.0))

        return similarity

    @staticmethod
    def _scored(nodes: Iterable[tuple[str, Vector | None]], similarity: Similarity) -> list[tuple[str, float]]:
        return [(node_id, score) for node_id, embedding in nodes if (score := similarity(embedding)) is not None]

    def _episode_hit(self, episode_id: str, score: float, text: str = "", coverage: float = 1.0) -> Hit:
        """episode_knowledge.cypher: the current propositions it proves, the active prescriptions drawn from it, and
        how much knowledge memory ever had from it."""
        g = self._graph
        proven = [g.propositions[p] for p in g.proven.get(episode_id, [])]
        prescriptions = sorted(
            r
            for r in g.prescribed.get(episode_id, [])
            if g.prescriptions[r].status == "active" and self._known(g.prescriptions[r])
        )
        return Hit(
            episode_id,
            score,
            tuple(sorted(p.id for p in proven if self._candidate(p))),
            sum(self._known(p) for p in proven) + len(prescriptions),
            tuple(prescriptions),
            text,
            coverage,
        )

    def _concept_hit(
        self, concept: Concept, stats: dict[str, tuple[int, float | None]], score: float = 1.0
    ) -> ConceptHit:
        df, idf = stats[concept.id]
        return ConceptHit(concept.id, concept.key, 1.0 if idf is None else idf, df, score)

    # -- searches ---------------------------------------------------------------------------------------------------

    def dense(self, label: Label, vector: list[float], k: int, speakers: Sequence[str] | None = None) -> list[Hit]:
        """exact_<label>.cypher."""
        self._load()
        self._statement()
        g, similarity = self._graph, self._similarity(vector)
        if label == "propositions":
            # The 4 x k nearest statements, each counting for the current proposition standing for it.
            statements = self._scored(((p.id, p.embedding) for p in g.propositions.values()), similarity)
            best: dict[str, float] = {}
            for node_id, score in _best(statements, 4 * k):
                current = self._resolve(g.propositions[node_id])
                if current is not None:
                    best[current.id] = max(score, best.get(current.id, score))
            return [Hit(node_id, score) for node_id, score in _best(best.items(), k)]
        if label == "episodes":
            said_by = set(speakers) if speakers else None
            episodes = (
                (e.id, e.embedding)
                for e in g.episodes.values()
                if self._known(e) and (said_by is None or e.speaker in said_by)
            )
            return [
                self._episode_hit(node_id, score) for node_id, score in _best(self._scored(episodes, similarity), k)
            ]
        if label == "prescriptions":
            active = ((r.id, r.embedding) for r in g.prescriptions.values() if self._current_prescription(r))
            return [Hit(node_id, score) for node_id, score in _best(self._scored(active, similarity), k)]
        if label == "intents":
            intents = ((i.id, i.embedding) for i in g.intents.values())
            return [
                Hit(node_id, score, prescribes=tuple(sorted(self._solving(node_id))))
                for node_id, score in _best(self._scored(intents, similarity), k)
            ]
        raise ValueError(f"no dense search of {label!r}")

    def _current_prescription(self, prescription: Prescription) -> bool:
        """Active, and recorded by `as_of` (exact / dense / fulltext_prescriptions.cypher)."""
        return prescription.status == "active" and self._known(prescription)

    def _solving(self, intent_id: str) -> list[str]:
        g = self._graph
        return [
            r
            for r in g.solving.get(intent_id, [])
            if g.prescriptions[r].status == "active" and self._known(g.prescriptions[r])
        ]

    def fulltext(self, label: TextLabel, lucene: str, k: int) -> list[Hit]:
        """fulltext_<label>.cypher over the space's documents that hold a query term, scored by BM25 with the
        space's own counts (GraphSearcher._rescored); prescriptions over their `terms`, not rescored (coverage 1)."""
        if not lucene:
            return []
        sizes = self._load()
        self._statement()
        g, terms = self._graph, query_terms(lucene)
        forms = {term: set(analyze(term)) for term in terms}
        wanted = set().union(*forms.values())

        def holds(text: str) -> bool:
            return any(_analysed(text).counts[form] for form in wanted)

        def holding(texts: list[str]) -> dict[str, int]:
            return {term: sum(any(_analysed(t).counts[f] for f in forms[term]) for t in texts) for term in terms}

        if label == "prescriptions":
            every = [r.terms for r in g.prescriptions.values()]
            mean = sum(map(len, every)) / len(every) if every else 0.0
            statistics = TermStatistics(len(every), holding(every), mean)
            matched = [r for r in g.prescriptions.values() if self._current_prescription(r) and holds(r.terms)]
            scores = bm25_scores([_analysed(r.terms) for r in matched], terms, statistics)
            return [Hit(r_id, score) for r_id, score in _best(zip((r.id for r in matched), scores, strict=True), k)]
        if label == "propositions":
            every = [p.text for p in g.propositions.values()]
            pool: dict[str, str] = {}  # current id -> its text
            for p in g.propositions.values():
                if holds(p.text) and (current := self._resolve(p)) is not None:
                    pool[current.id] = current.text
            mean_chars = sizes["proposition_chars"]
        elif label == "episodes":
            every = [e.text for e in g.episodes.values()]
            pool = {e.id: e.text for e in g.episodes.values() if self._known(e) and holds(e.text)}
            mean_chars = sizes["episode_chars"]
        else:
            raise ValueError(f"no full-text search of {label!r}")
        if not pool:
            return []
        statistics = TermStatistics(len(every), holding(every), float(mean_chars))
        ids = sorted(pool)
        texts = [_analysed(pool[i]) for i in ids]
        scores = bm25_scores(texts, terms, statistics)
        weights = distinctive_weights(terms, statistics, self._distinctive_share)
        coverage = distinctive_coverage(texts, weights)
        with self._lock:
            self.distinctive[label] = sorted(weights)
        if label == "episodes":
            hits = [
                self._episode_hit(i, round(s, 6), pool[i], c) for i, s, c in zip(ids, scores, coverage, strict=True)
            ]
        else:
            hits = [
                Hit(i, round(s, 6), text=pool[i], coverage=c) for i, s, c in zip(ids, scores, coverage, strict=True)
            ]
        return sorted(hits, key=lambda h: (-h.score, h.id))[:k]

    # -- concepts ---------------------------------------------------------------------------------------------------

    def unmentioned(self, names: Sequence[str], typos: bool = False) -> list[str]:
        """unmentioned.cypher: the names no known episode's text holds (as analysed), no speaker is called by and no
        source's title (here its key) has."""
        self._statement()
        episodes = [e for e in self._graph.episodes.values() if self._recorded(e)]
        held = {term for e in episodes for term in _analysed(e.text).counts}
        called = {word for e in episodes if e.speaker for word in re.split(r"\W+", e.speaker.lower())}
        titled = {
            word
            for s in self._graph.sources.values()
            if s.title_key and self._recorded(s)
            for word in re.split(r"\W+", s.title_key)
        }
        missing = []
        for name in names:
            terms = analyze(name)
            if len(terms) != 1 or name.lower() in called | titled:
                continue
            if terms[0] not in held and not (typos and any(one_edit_apart(terms[0], term) for term in held)):
                missing.append(name)
        return missing

    def concepts_by_key(self, keys: Sequence[str]) -> list[ConceptHit]:
        """concepts_by_key.cypher: the concepts with these keys and their aliases (SAME_AS either way)."""
        if not keys:
            return []
        self._statement()
        g, stats = self._graph, self._graph.concept_stats()
        found: dict[str, Concept] = {}
        for key in keys:
            concept_id = g.keys.get(key)
            if concept_id is None:
                continue
            concept = g.concepts[concept_id]
            for each in [concept, *(g.concepts[a] for a in sorted(concept.aliases))]:
                found.setdefault(each.id, each)
        return [self._concept_hit(c, stats) for c in found.values()]

    def dense_concepts(self, vector: list[float], k: int, min_score: float) -> list[ConceptHit]:
        """exact_concepts.cypher."""
        self._load()
        self._statement()
        g, stats = self._graph, self._graph.concept_stats()
        scored = self._scored(((c.id, c.embedding) for c in g.concepts.values()), self._similarity(vector))
        best = _best(((i, s) for i, s in scored if s >= min_score), k)
        return [self._concept_hit(g.concepts[i], stats, s) for i, s in best]

    def propagate(self, seeds: Sequence[ConceptHit], fanout: int) -> list[tuple[str, ConceptHit, float]]:
        """propagate.cypher: each seed's `fanout` strongest associations, weighed count x idf x idf (0 without idf)."""
        if not seeds:
            return []
        self._statement()
        g, stats = self._graph, self._graph.concept_stats()
        rows: list[tuple[str, ConceptHit, float]] = []
        for seed in seeds:
            if seed.id not in g.concepts:
                continue
            seed_idf = stats[seed.id][1] or 0.0
            weights = [
                (other, count * seed_idf * (stats[other][1] or 0.0))
                for pair, count in g.associations.items()
                if seed.id in pair and len(pair) == 2
                for other in pair - {seed.id}
                if other in g.concepts
            ]
            for other, weight in _best(weights, fanout):
                rows.append((seed.id, self._concept_hit(g.concepts[other], stats), weight))
        return rows

    def expand(self, activations: dict[str, float], vector: list[float], per_concept: int) -> list[dict[str, Any]]:
        """expand_concepts.cypher: per concept, the `per_concept` current propositions mentioning it closest to the
        query; a proposition reached from several sums their activations."""
        if not activations:
            return []
        self._statement()
        g, similarity = self._graph, self._similarity(vector)
        rows: dict[str, dict[str, Any]] = {}
        for concept_id, activation in activations.items():
            concept = g.concepts.get(concept_id)
            if concept is None:
                continue
            mentions = (g.propositions[p] for p in g.mentioned.get(concept_id, []))
            current = ((p.id, p.embedding) for p in mentions if self._candidate(p))
            for proposition_id, score in _best(self._scored(current, similarity), per_concept):
                empty = {"id": proposition_id, "activation": 0.0, "via": [], "similarity": score}
                row = rows.setdefault(proposition_id, empty)
                row["activation"] += activation
                row["via"].append(concept.key)
                row["similarity"] = max(row["similarity"], score)
        return list(rows.values())

    # -- rows -------------------------------------------------------------------------------------------------------

    def _provenance(self, episode: Episode) -> dict[str, Any]:
        return {
            "id": episode.id,
            "external_id": episode.external_id,
            "source_id": episode.source_id,
            "speaker": episode.speaker,
            "text": episode.text,
            "occurred_at": _iso(episode.occurred_at),
        }

    def _proofs(self, episode_ids: Iterable[str]) -> list[Episode]:
        """Proving episodes ORDER BY occurred_at, seq, id (nulls last)."""
        episodes = [self._graph.episodes[e] for e in episode_ids if e in self._graph.episodes]
        return sorted(episodes, key=lambda e: (e.occurred_at is None, e.occurred_at or EPOCH, e.seq, e.id))

    def _statements(self, episode_id: str) -> int:
        """COUNT { (e)<-[:PROVEN_BY]-() }: everything ever drawn from it."""
        return len(self._graph.proven.get(episode_id, [])) + len(self._graph.prescribed.get(episode_id, []))

    def hydrate(
        self, label: TextLabel, items: Sequence[tuple[str, float | None]], vector: list[float]
    ) -> list[dict[str, Any]]:
        """hydrate_<label>.cypher: a row for each item still in the graph (whatever its status, as the statements)."""
        if not items:
            return []
        self._statement()
        g, similarity = self._graph, self._similarity(vector)
        rows: list[dict[str, Any]] = []
        for item_id, known in items:
            if label == "propositions" and (p := g.propositions.get(item_id)) is not None:
                proofs = self._proofs(p.episodes)
                rows.append(
                    {
                        "id": p.id,
                        "text": p.text,
                        "valid_from": _iso(p.valid_from),
                        "importance": 0.5 if p.importance is None else p.importance,
                        "confidence": 0.7 if p.confidence is None else p.confidence,
                        "provenance": [self._provenance(e) for e in proofs],
                        "statements": min((self._statements(e.id) for e in proofs), default=1),
                        "similarity": similarity(p.embedding) if known is None else known,
                        "superseded_by": p.superseded_by if self._replaced(p) else None,
                        "valid_to": _iso(p.valid_to) if self._replaced(p) else None,
                    }
                )
            elif label == "episodes" and (e := g.episodes.get(item_id)) is not None:
                rows.append(
                    {
                        "id": e.id,
                        "text": e.text,
                        "valid_from": _iso(e.occurred_at),
                        "importance": 0.5,
                        "confidence": 0.6,
                        "statements": self._statements(e.id),
                        "similarity": similarity(e.embedding) if known is None else known,
                        "provenance": [self._provenance(e)],
                    }
                )
            elif label == "prescriptions" and (r := g.prescriptions.get(item_id)) is not None:
                intent = g.intents.get(r.intent) if r.intent is not None else None
                rows.append(
                    {
                        "id": r.id,
                        "text": r.text,
                        "intent": intent.text if intent is not None else None,
                        "valid_from": None,
                        "importance": None if r.return_score is None else (r.return_score - 1.0) / 9.0,
                        "confidence": 0.7,
                        "similarity": similarity(r.embedding) if known is None else known,
                        "provenance": [self._provenance(e) for e in self._proofs(r.episodes)],
                    }
                )
        return rows

    def episode_context(self, anchors: dict[str, int], vector: list[float]) -> list[dict[str, Any]]:
        """episode_context.cypher: the two utterances after each anchor in its source and the one before."""
        if not anchors:
            return []
        self._statement()
        g, similarity = self._graph, self._similarity(vector)
        rows: list[dict[str, Any]] = []
        for anchor_id, rank in anchors.items():
            anchor = g.episodes.get(anchor_id)
            if anchor is None:
                continue
            order = g.sources[anchor.source_id].episodes
            near = [(anchor.seq + 1, 1), (anchor.seq + 2, 2), (anchor.seq - 1, 1)]
            for position, distance in near:
                if not 0 <= position < len(order):
                    continue
                n = g.episodes[order[position]]
                if not self._known(n):
                    continue
                proven = [g.propositions[p] for p in g.proven.get(n.id, [])]
                prescriptions = [g.prescriptions[r] for r in g.prescribed.get(n.id, [])]
                rows.append(
                    {
                        "anchor_rank": rank,
                        "episode_id": n.id,
                        "distance": distance,
                        "episode_similarity": similarity(n.embedding),
                        "propositions": [
                            {"id": p.id, "similarity": similarity(p.embedding)} for p in proven if self._candidate(p)
                        ],
                        "knowledge": sum(self._known(p) for p in proven) + sum(self._known(r) for r in prescriptions),
                    }
                )
        return rows

    def entity_pages(
        self, items: dict[str, tuple[int, list[str]]], names: Sequence[str], vector: list[float], per_page: int, k: int
    ) -> dict[str, tuple[list[Hit], list[str]]]:
        """page_episodes.cypher: the documents whose title key a top item names (by a concept it mentions or by
        `names` of its own; never its own document) and those the query names, each giving its `per_page` passages
        closest to the query; each kind ranked by the naming rank, then closeness, its first `k` kept."""
        pages: dict[str, tuple[list[Hit], list[str]]] = {"items": ([], []), "query": ([], [])}
        if not items and not names:
            return pages
        self._statement()
        g, similarity = self._graph, self._similarity(vector)
        by_key: dict[str, list[Source]] = {}
        for source in g.sources.values():
            if source.title_key is not None and self._known(source):
                by_key.setdefault(source.title_key, []).append(source)
        named: dict[tuple[str, str], tuple[int, set[str]]] = {}  # (via, source id) -> (rank, keys)

        def name(via: str, source: Source, rank: int, key: str) -> None:
            before, keys = named.get((via, source.id), (rank, set()))
            named[(via, source.id)] = (min(before, rank), keys | {key})

        for item_id, (rank, words) in items.items():
            p = g.propositions.get(item_id)
            if p is None:
                continue
            own = {g.episodes[e].source_id for e in p.episodes if e in g.episodes}
            for key in {g.concepts[c].key for c in p.concepts} | set(words):
                for source in by_key.get(key, []):
                    if source.id not in own:
                        name("items", source, rank, key)
        for rank, key in enumerate(names):
            for source in by_key.get(key, []):
                name("query", source, rank, key)
        passages: dict[tuple[str, str], tuple[int, float, set[str]]] = {}  # (via, episode id) -> (rank, score, keys)
        for (via, source_id), (rank, keys) in named.items():
            told = (g.episodes[e] for e in g.sources[source_id].episodes)
            known = ((e.id, e.embedding) for e in told if self._known(e))
            for episode_id, score in _best(self._scored(known, similarity), per_page):
                before = passages.get((via, episode_id), (rank, score, set()))
                passages[(via, episode_id)] = (min(before[0], rank), max(before[1], score), before[2] | keys)
        for via, (hits, found_keys) in pages.items():
            mine = sorted(
                (
                    (rank, -score, episode_id, keys)
                    for (v, episode_id), (rank, score, keys) in passages.items()
                    if v == via
                ),
                key=lambda row: row[:3],
            )[:k]
            hits.extend(self._episode_hit(episode_id, -negative) for _, negative, episode_id, _ in mine)
            found_keys.extend(sorted({key for *_, keys in mine for key in keys}))
        return pages

    def episodes_within(self, windows: Sequence[TimeWindow], vector: list[float], k: int) -> WindowHits:
        """window_stated_episodes.cypher, then window_episodes.cypher: the episodes holding a statement whose own time
        falls in a window (in the days it names first), then those told within one; each group closest first."""
        if not windows:
            return WindowHits([], 0)
        self._load()
        self._statement(2)
        g, similarity = self._graph, self._similarity(vector)
        spans = [TimeWindow(*(_utc(t) or t for t in (w.start, w.end, w.core_start, w.core_end))) for w in windows]
        stated_level: dict[str, int] = {}
        for d in g.propositions.values():
            when = d.valid_from
            if when is None or not self._known(d):
                continue
            told = [g.episodes[e] for e in d.episodes if e in g.episodes]
            if any(e.occurred_at == when for e in told):
                continue  # dated by when it was told, not by its words
            for window in spans:
                if window.start <= when < window.end:
                    level = 2 if window.core_start <= when < window.core_end else 1
                    for e in told:
                        if self._known(e):
                            stated_level[e.id] = max(level, stated_level.get(e.id, 0))
        scored = self._scored(((e, g.episodes[e].embedding) for e in stated_level), similarity)
        stated = sorted(scored, key=lambda s: (-stated_level[s[0]], -s[1], s[0]))[:k]
        within = (
            (e.id, e.embedding)
            for e in g.episodes.values()
            if self._known(e) and e.occurred_at is not None and any(w.start <= e.occurred_at < w.end for w in spans)
        )
        told_hits = _best(self._scored(within, similarity), k + len(stated))
        seen = {episode_id for episode_id, _ in stated}
        hits = [self._episode_hit(i, s) for i, s in stated]
        hits += [self._episode_hit(i, s) for i, s in told_hits if i not in seen]
        return WindowHits(hits[:k], len(stated))

    # -- the best items ---------------------------------------------------------------------------------------------

    def top_items(self, ids: Sequence[str], head: Sequence[tuple[str, ItemKind]]) -> list[ConceptHit]:
        """top_items.cypher: the concepts the propositions `ids` mention; the `head` items' vectors, fetched once."""
        with self._lock:
            wanted = [(item_id, kind) for item_id, kind in head if item_id not in self._vectors]
        if not ids and not wanted:
            return []
        self._statement()
        g = self._graph
        nodes: dict[ItemKind, dict[str, Any]] = {
            ItemKind.PROPOSITION: g.propositions,
            ItemKind.PRESCRIPTION: g.prescriptions,
            ItemKind.EPISODE: g.episodes,
        }
        found: dict[str, list[float] | None] = {}
        for item_id, kind in wanted:
            node = nodes[kind].get(item_id)
            found[item_id] = node.embedding.tolist() if node is not None and node.embedding is not None else None
        with self._lock:
            self._vectors.update(found)
        stats = g.concept_stats()
        concepts: dict[str, ConceptHit] = {}
        for proposition_id in ids:
            p = g.propositions.get(proposition_id)
            for concept_id in p.concepts if p is not None else []:
                if concept_id not in concepts and concept_id in g.concepts:
                    concepts[concept_id] = self._concept_hit(g.concepts[concept_id], stats)
        return list(concepts.values())

    def item_vectors(self, items: Sequence[tuple[str, ItemKind]]) -> dict[str, list[float]]:
        self.top_items([], items)
        with self._lock:
            return {item_id: vector for item_id, _ in items if (vector := self._vectors.get(item_id)) is not None}

    def earlier_versions(self, ids: Sequence[str]) -> list[dict[str, Any]]:
        """earlier_versions.cypher: up to three versions back along 'updated' and 'correction' links, nearest
        first."""
        g = self._graph
        replaced: dict[str, list[str]] = {}
        for old_id, survivors in g.supersedes.items():
            for survivor, reason, _ in survivors:
                if reason in ("updated", "changed", "correction"):
                    replaced.setdefault(survivor, []).append(old_id)
        rows = []
        for current in sorted(set(ids)):
            if current not in g.propositions:
                continue
            depth_of: dict[str, int] = {}
            frontier = [current]
            for depth in range(1, 4):
                frontier = [old for node in frontier for old in replaced.get(node, []) if old not in depth_of]
                depth_of.update((old, depth) for old in frontier if old not in depth_of)
            for old_id, _ in sorted(depth_of.items(), key=lambda pair: (pair[1], pair[0])):
                old = g.propositions[old_id]
                if self._known(old):
                    valid_to = None if old.valid_to is None else old.valid_to.isoformat()
                    rows.append({"current": current, "id": old_id, "valid_to": valid_to})
        return rows

    def subject_facts(self, subject: str, vector: list[float]) -> list[dict[str, Any]]:
        """subject_facts.cypher: every version of the facts about `subject`, oldest first."""
        g, similarity = self._graph, self._similarity(vector)
        wanted = subject.casefold()
        facts = [
            p
            for p in g.propositions.values()
            if p.frame and p.subject.casefold() == wanted and self._known(p)
        ]  # fmt: skip
        facts.sort(key=lambda p: (p.valid_from or EPOCH, p.id))
        return [
            {
                "id": p.id, "text": p.text, "slot": p.slot, "frame": p.frame, "value": p.value,
                "value_type": p.value_type,
                "event": p.event,
                "current": self._current(p), "valid_from": p.valid_from.isoformat() if p.valid_from else None,
                "similarity": similarity(p.embedding) or 0.5,
            }
            for p in facts
        ]  # fmt: skip

    def current_versions(self, ids: Sequence[str]) -> list[dict[str, Any]]:
        """current_versions.cypher: for each replaced proposition of `ids`, the nearest current one superseding it."""
        g = self._graph
        rows = []
        for old_id in sorted(set(ids)):
            if old_id not in g.propositions:
                continue
            frontier, seen = [old_id], {old_id}
            for _ in range(MERGE_DEPTH):
                frontier = sorted(
                    survivor
                    for node in frontier
                    for survivor, _, _ in g.supersedes.get(node, [])
                    if survivor not in seen and survivor in g.propositions
                )
                seen.update(frontier)
                current = next((node for node in frontier if self._current(g.propositions[node])), None)
                if current is not None:
                    rows.append({"id": old_id, "current": current})
                    break
        return rows
