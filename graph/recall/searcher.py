"""The one interface recall reads memory through.

Two implementations: `graph/recall/neo4j_searcher.py` `GraphSearcher` (Neo4j, one Cypher file under cypher/recall/ per
operation) and `tests/support/memory_searcher.py` `MemorySearcher` (in memory: numpy cosine and a small BM25, for unit
tests of the steps and the engine). A searcher serves one recall of one space: it keeps what it fetched (hydrated
rows, item vectors) so a later step does not fetch it again. It is called from several threads at once.

Row shapes (plain dicts, as the statements return them):
- hydrate: id, text, valid_from, similarity (raw vector score, (1 + cosine) / 2), confidence, importance, provenance
  (list of {id, external_id, source_id, speaker, text, occurred_at}), statements (propositions: how many statements
  the proving utterance yielded), intent (prescriptions: the goal text or None), superseded_by and valid_to
  (propositions replaced as of the searcher's time, else None).
- expand: id (a proposition), activation (sum over the concepts that reached it), via (their keys), similarity.
- episode_context: anchor_rank, distance, episode_id, episode_similarity, knowledge (how many statements it ever
  proved), propositions (list of {id, similarity}).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

from graph.recall.hits import ConceptHit, Hit, TimeWindow, WindowHits
from graph.recall.models import ItemKind

Label = Literal["propositions", "episodes", "prescriptions", "intents"]
TextLabel = Literal["propositions", "episodes", "prescriptions"]


class Searcher(Protocol):
    queries: int  # statements issued during this recall (the trace reports it)
    hydrated: dict[str, dict[str, Any]]  # item id -> hydrate row, filled by `hydrate`'s callers
    distinctive: dict[str, list[str]]  # label -> the query's distinctive terms found by `fulltext`

    @property
    def space(self) -> str: ...

    def load_sizes(self) -> None:
        """Reads the space's label counts once (a searcher may choose its plan by them)."""

    def has_pages(self) -> bool:
        """Whether a document of the space is the page of a concept."""

    def dense(self, label: Label, vector: list[float], k: int, speakers: Sequence[str] | None = None) -> list[Hit]:
        """The k nodes of `label` closest to `vector`, best first; `speakers` (episodes only) keeps what they said.
        An episode hit carries its current knowledge; an intent hit the prescriptions solving it."""

    def fulltext(self, label: TextLabel, lucene: str, k: int) -> list[Hit]:
        """The k best full-text hits of a Lucene query (empty query: none)."""

    def unmentioned(self, names: Sequence[str], typos: bool = False) -> list[str]:
        """The `names` nothing the scope remembers mentions: in no episode's text, as no speaker's name. With `typos`,
        a word one edit away from a name's in an episode's text mentions it too."""

    def concepts_by_key(self, keys: Sequence[str]) -> list[ConceptHit]:
        """The concepts with these exact keys (full confidence)."""

    def dense_concepts(self, vector: list[float], k: int, min_score: float) -> list[ConceptHit]:
        """The k concepts closest to `vector` with a vector score of at least `min_score`."""

    def propagate(self, seeds: Sequence[ConceptHit], fanout: int) -> list[tuple[str, ConceptHit, float]]:
        """(seed id, associated concept, association weight): each seed's `fanout` strongest associations."""

    def expand(self, activations: dict[str, float], vector: list[float], per_concept: int) -> list[dict[str, Any]]:
        """The current propositions mentioning the concepts (id -> activation), `per_concept` closest each."""

    def hydrate(
        self, label: TextLabel, items: Sequence[tuple[str, float | None]], vector: list[float]
    ) -> list[dict[str, Any]]:
        """Rows for ranking (id, similarity if known); a deleted item has no row."""

    def episode_context(self, anchors: dict[str, int], vector: list[float]) -> list[dict[str, Any]]:
        """The utterances next to the anchor episodes (episode id -> rank of the item it proves)."""

    def entity_pages(
        self, items: dict[str, tuple[int, list[str]]], names: Sequence[str], vector: list[float], per_page: int, k: int
    ) -> dict[str, tuple[list[Hit], list[str]]]:
        """{"items": (passages, keys), "query": (passages, keys)}: the pages the top items and the query name."""

    def episodes_within(self, windows: Sequence[TimeWindow], vector: list[float], k: int) -> WindowHits:
        """The episodes of the time windows, those holding a statement dated in one first."""

    def top_items(self, ids: Sequence[str], head: Sequence[tuple[str, ItemKind]]) -> list[ConceptHit]:
        """The concepts the propositions `ids` mention; fetches the `head` items' vectors alongside."""

    def item_vectors(self, items: Sequence[tuple[str, ItemKind]]) -> dict[str, list[float]]:
        """The embeddings of (id, kind) pairs; a deleted item is missing."""

    def earlier_versions(self, ids: Sequence[str]) -> list[dict[str, Any]]:
        """What revisions of the propositions `ids` replaced, nearest first: rows {current, id, valid_to}."""

    def subject_facts(self, subject: str, vector: list[float]) -> list[dict[str, Any]]:
        """Every version of the facts about `subject` (case-folded), oldest first: rows {id, text, slot, frame, value,
        value_type, event, current (holds now, or at the searcher's time), valid_from, similarity (to `vector`)}."""

    def current_versions(self, ids: Sequence[str]) -> list[dict[str, Any]]:
        """The current version of each replaced proposition of `ids` (the nearest along its SUPERSEDES chain): rows
        {id, current}."""
