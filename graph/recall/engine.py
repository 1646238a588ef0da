"""Recall: route, seed, abstract, propagate, expand, rerank, prune, and hop again when it helps.

Every step is recorded in the trace so a caller can see why an item came back (or did not).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import neo4j
import numpy as np
from numpy.typing import NDArray

from graph.params import vector_param
from graph.recall.abstraction import Abstractor, OfflineAbstractor
from graph.recall.controller import HopController
from graph.recall.diversity import mmr_order
from graph.recall.lucene import lucene_query
from graph.recall.models import (
    ItemKind,
    MemoryType,
    Provenance,
    RecallItem,
    RecallRequest,
    RecallResult,
    SourceGroup,
    TraceStep,
)
from graph.recall.participants import named_participants, without_names
from graph.recall.router import Router, RuleRouter
from graph.recall.search import ConceptHit, GraphSearcher, Hit, SpaceSizes
from graph.recall.value import DENSE_LISTS, ValueWeights, cosine, match_strength, recency, rrf

EmbedFn = Callable[[Sequence[str]], NDArray[np.float32]]
CountTokensFn = Callable[[str], int]
_LABELS = {ItemKind.PROPOSITION: "propositions", ItemKind.EPISODE: "episodes", ItemKind.PRESCRIPTION: "prescriptions"}


@dataclass
class Candidate:
    id: str
    kind: ItemKind
    ranks: dict[str, int] = field(default_factory=dict)
    activation: float = 0.0
    found_by: list[str] = field(default_factory=list)
    similarity: float | None = None  # the exact cosine to the query, when the step that found it computed it

    # How much each list's vote counts (graph/recall/value.py `match_strength`); 1 where not given.
    strengths: dict[str, float] = field(default_factory=dict)

    def add(self, source: str, rank: int, strength: float = 1.0) -> None:
        if source not in self.ranks or rank < self.ranks[source]:
            self.ranks[source] = rank
        self.strengths[source] = max(strength, self.strengths.get(source, 0.0))
        if source not in self.found_by:
            self.found_by.append(source)


@dataclass(frozen=True)
class _Abstraction:
    """What the abstraction thread found: the query's concepts, their spread activation, the expansion's rows."""

    concepts: list[ConceptHit]
    activation: dict[str, float]
    spread: dict[str, tuple[str, float]]
    expanded: dict[str, float]
    expansion: list[dict[str, Any]]
    ms: float


@dataclass(frozen=True)
class _ParticipantSearch:
    """What the participant searches found: episodes closest to the query's content, said by the participants it
    names ("participant") and by anyone ("content": a question's premise may credit the wrong person)."""

    participants: list[str]
    content: str
    lists: dict[str, list[Hit]]


@dataclass(slots=True)
class Ranked:
    """A scored candidate; it becomes a RecallItem only if it is returned (a recall ranks ~200 three times)."""

    id: str
    kind: ItemKind
    text: str
    score: float
    components: dict[str, float]
    provenance: list[Provenance]
    valid_from: datetime | None
    found_by: list[str]

    def item(self, tokens: int) -> RecallItem:
        return RecallItem(
            id=self.id,
            kind=self.kind,
            text=self.text,
            score=self.score,
            components={name: round(value, 4) for name, value in self.components.items()},
            provenance=self.provenance,
            tokens=tokens,
            valid_from=self.valid_from,
            found_by=self.found_by,
        )


@dataclass(frozen=True)
class RecallTuning:
    seed_k: int = 40
    concept_fanout: int = 8  # neighbours per activated concept
    expand_concepts: int = 20  # most activated concepts expanded back to knowledge
    per_concept: int = 12  # mentions per concept, closest to the query first
    propagation: float = 0.5  # share of activation passed over one association hop
    hop_decay: float = 0.5
    rerank_pool: int = 120
    # Concepts mentioned more often than this are too general to expand from (their idf is low anyway), and
    # scanning their mentions would dominate latency on large spaces.
    max_expand_df: int = 500
    # Expansion reads the vector of every mention of the concepts it expands (to take those closest to the
    # query): at most this many mentions per expansion, most activated concepts first. Bounds the step's cost on
    # large spaces, where mid-frequency concepts have hundreds of mentions each (100k synthetic space: 400
    # instead of 1,000 took p95 from 152 to 128 ms, and 99.3% of the top 10 stayed the same).
    expand_mentions: int = 400
    # Conversational context: the neighbouring utterances of the top items' episodes join the candidates
    # (0 turns it off).
    context_items: int = 10
    # Episodes per participant search, run when the query names someone who speaks in the top items (0: off).
    participant_k: int = 25
    # Search a large space's own indexes where it has them (graph/space_indexes.py); False: the shared ones
    # (benchmarks compare the two).
    own_indexes: bool = True
    # Maximal marginal relevance over the ranking (graph/recall/diversity.py): the weight of an item's closest
    # cosine to an item placed above it (0: off). The whole ranking (at most `rerank_pool` items) is reordered, so
    # the returned scores are the final ranking's and fall with the rank.
    # LoCoMo dev (bench.locomo_recall), same recall otherwise, under the earlier value weights and the 40 best items
    # reordered: R@10 all-no-adv 73.6 -> 74.0, multi-hop 48.8 -> 49.0, adversarial 71.1 -> 72.6, open-domain (51
    # questions) 50.3 -> 47.9.
    diversity: float = 0.25
    # A dense search returns its k nearest whatever their distance, so in a small space everything is some list's
    # top hit. Its vote counts by how well it matches: nothing at a cosine of `vote_floor` or below, fully from
    # `vote_full` (graph/recall/value.py `match_strength`). LoCoMo evidence turns: 2% below 0.2, median 0.48.
    vote_floor: float = 0.10
    vote_full: float = 0.25

    def __post_init__(self) -> None:
        # Checked when the engine is configured, not at its first recall.
        if not 0.0 <= self.diversity < 1.0:
            raise ValueError(f"diversity must be in [0, 1), got {self.diversity}")


class _Trace(list[TraceStep]):
    """Trace steps stamped with the time since the previous step (so the steps add up to the whole)."""

    def __init__(self) -> None:
        super().__init__()
        self._mark = time.perf_counter()

    def append(self, step: TraceStep) -> None:
        now = time.perf_counter()
        step.ms = round(1000 * (now - self._mark), 2)
        self._mark = now
        super().append(step)


class RecallEngine:
    def __init__(
        self,
        driver: neo4j.Driver,
        database: str,
        embed: EmbedFn,
        count_tokens: CountTokensFn,
        router: Router | None = None,
        abstractor: Abstractor | None = None,
        controller: HopController | None = None,
        weights: ValueWeights | None = None,
        tuning: RecallTuning | None = None,
        read_timeout_s: float | None = None,
    ) -> None:
        self._driver = driver
        self._read_timeout_s = read_timeout_s  # each statement's transaction timeout (None: the server's default)
        self._database = database
        self._embed = embed
        self._count_tokens = count_tokens
        self._router = router or RuleRouter()
        self._abstractor = abstractor or OfflineAbstractor()
        self._controller = controller or HopController()
        self._weights = weights or ValueWeights()
        self._tuning = tuning or RecallTuning()
        self._space_sizes = SpaceSizes()

    def recall(self, request: RecallRequest) -> RecallResult:
        searcher = GraphSearcher(
            self._driver,
            self._database,
            request.space,
            request.as_of,
            self._space_sizes,
            own_indexes=self._tuning.own_indexes,
            timeout_s=self._read_timeout_s,
        )
        trace = _Trace()
        types = request.memory_types or self._router.route(request.query)
        trace.append(TraceStep(step="route", detail={"memory_types": [t.value for t in types]}))
        vector = vector_param(self._embed([request.query])[0])
        candidates: dict[str, Candidate] = {}

        with ThreadPoolExecutor(max_workers=1) as alongside:
            # Abstraction, propagation and expansion need only the query, not the seeds: they run while the seed
            # searches do, and their candidates join after the seeds' (so the merge order stays the same).
            abstraction = alongside.submit(self._abstract_and_propagate, request.query, vector, searcher)
            self._seed(request.query, vector, types, searcher, candidates, trace)
            activated = self._join_abstraction(abstraction.result(), candidates, trace)

        hops = 1
        ranked = self._rank(request, vector, types, searcher, candidates)
        trace.append(TraceStep(step="rank", detail={"ranked": len(ranked), "hydrated": len(searcher.hydrated)}))
        named = named_participants(request.query, {p.speaker for item in ranked for p in item.provenance})
        with ThreadPoolExecutor(max_workers=1) as alongside:
            # Both follow from the first ranking and are independent: the participant searches run while the
            # context query does.
            search = None
            if named and self._tuning.participant_k and MemoryType.SEMANTIC in types:
                search = alongside.submit(self._participant_search, request.query, named, searcher)
            merged = 0
            if self._tuning.context_items:
                merged = self._context(ranked, vector, types, searcher, candidates, trace)
            if search is not None:
                merged += self._join_participants(search.result(), types, candidates, trace)
        if merged:
            ranked = self._rank(request, vector, types, searcher, candidates)
            trace.append(TraceStep(step="rank with context", detail={"ranked": len(ranked)}))
        diversify = self._tuning.diversity > 0
        while True:
            top_ids = [item.id for item in ranked[:5] if item.kind is ItemKind.PROPOSITION]
            # The ranking's vectors, for diversifying it, come in the controller's statement (after a further hop,
            # only the new items').
            head = _kinds(ranked) if diversify else []
            new_concepts = [c for c in searcher.top_items(top_ids, head) if c.id not in activated]
            top_similarity = max((item.components["similarity"] for item in ranked[:5]), default=0.0)
            decision = self._controller.decide(hops, request.hop_limit, len(new_concepts), top_similarity)
            detail = {"another_hop": decision.another, "reason": decision.reason}
            trace.append(TraceStep(step=f"controller after hop {hops}", detail=detail))
            if not decision.another:
                break
            hops += 1
            decay = self._tuning.hop_decay ** (hops - 1)
            # A later hop carries less activation, and gets a share of the mention budget to match.
            hop_activation = concepts_to_expand(
                self._tuning,
                {c.id: decay * c.idf for c in new_concepts},
                {c.id: c.df for c in new_concepts},
                budget=round(decay * self._tuning.expand_mentions),
            )
            activated |= hop_activation.keys()
            self._expand(hop_activation, vector, searcher, candidates, f"hop:{hops}")
            trace.append(TraceStep(step=f"hop {hops}", detail={"concepts": sorted(c.key for c in new_concepts)[:20]}))
            ranked = self._rank(request, vector, types, searcher, candidates)
            trace.append(TraceStep(step=f"rank after hop {hops}", detail={"ranked": len(ranked)}))

        if diversify:
            ranked = self._diversify(ranked, searcher, trace)
        items, pruned = self._prune(ranked, request.token_budget, request.limit)
        trace.append(
            TraceStep(
                step="rerank and prune",
                detail={
                    "weights": self._weights.__dict__,
                    "ranked": len(ranked),
                    "returned": len(items),
                    "pruned": pruned[:20],
                    "cypher_statements": searcher.queries,
                },
            )
        )
        return RecallResult(
            query=request.query,
            memory_types=types,
            items=items,
            sources=by_source(items),
            tokens=sum(i.tokens for i in items),
            hops=hops,
            trace=trace,
            cypher=browser_cypher(request.space, items),
        )

    # -- steps -------------------------------------------------------------------------------------------

    def _seed(
        self,
        query: str,
        vector: list[float],
        types: list[MemoryType],
        searcher: GraphSearcher,
        candidates: dict[str, Candidate],
        trace: list[TraceStep],
    ) -> None:
        k = self._tuning.seed_k
        lucene = lucene_query(query)
        searches: dict[str, Callable[[], list[Hit]]] = {}
        if MemoryType.SEMANTIC in types or MemoryType.EPISODIC in types:
            searches["dense"] = lambda: searcher.dense("propositions", vector, k)
            searches["fulltext"] = lambda: searcher.fulltext("propositions", lucene, k)
            # Turn-level evidence: an utterance's context can match where its sentences alone do not.
            searches["episode_dense"] = lambda: searcher.dense("episodes", vector, k)
            searches["episode_fulltext"] = lambda: searcher.fulltext("episodes", lucene, k)
        if MemoryType.PROCEDURAL in types:
            searches["prescription_dense"] = lambda: searcher.dense("prescriptions", vector, k)
            searches["prescription_fulltext"] = lambda: searcher.fulltext("prescriptions", lucene, k)
            # The goals procedures were recorded for: a task worded as a goal finds the prescriptions solving it.
            searches["intent_dense"] = lambda: searcher.dense("intents", vector, k)
        searcher.load_sizes()
        # The searches are independent round trips: run them side by side (the driver is thread-safe).
        with ThreadPoolExecutor(max_workers=len(searches)) as pool:
            futures = {name: pool.submit(search) for name, search in searches.items()}
            lists: dict[str, list[Hit]] = {name: future.result() for name, future in futures.items()}
        if "dense" in lists:
            for name in ("dense", "fulltext"):
                for rank, hit in enumerate(lists[name], start=1):
                    candidate = _candidate(candidates, hit.id, ItemKind.PROPOSITION)
                    candidate.add(name, rank, self._strength(name, hit))
            for name in ("episode_dense", "episode_fulltext"):
                _merge_episode_hits(name, lists[name], types, candidates, self._strength)
        if MemoryType.PROCEDURAL in types:
            for name in ("prescription_dense", "prescription_fulltext"):
                for rank, hit in enumerate(lists[name], start=1):
                    candidate = _candidate(candidates, hit.id, ItemKind.PRESCRIPTION)
                    candidate.add(name, rank, self._strength(name, hit))
            for rank, hit in enumerate(lists["intent_dense"], start=1):
                for prescription_id in hit.prescribes:
                    candidate = _candidate(candidates, prescription_id, ItemKind.PRESCRIPTION)
                    candidate.add("intent_dense", rank, self._strength("intent_dense", hit))
        trace.append(
            TraceStep(
                step="seed",
                detail={
                    "lucene": lucene,
                    "hits": {name: len(hits) for name, hits in lists.items()},
                    "candidates": len(candidates),
                },
            )
        )

    def _participant_search(self, query: str, participants: list[str], searcher: GraphSearcher) -> _ParticipantSearch:
        content = without_names(query, participants)
        if not content:
            return _ParticipantSearch(participants, content, {})
        vector = vector_param(self._embed([content])[0])
        k = self._tuning.participant_k
        with ThreadPoolExecutor(max_workers=2) as pool:
            own = pool.submit(searcher.dense, "episodes", vector, k, participants)
            anyone = pool.submit(searcher.dense, "episodes", vector, k)
            lists = {"participant": own.result(), "content": anyone.result()}
        return _ParticipantSearch(participants, content, lists)

    def _strength(self, name: str, hit: Hit) -> float:
        """How much `hit` of list `name` counts in the fusion: a dense search's hit by how well it matches."""
        if name not in DENSE_LISTS:
            return 1.0
        return match_strength(hit.score, self._tuning.vote_floor, self._tuning.vote_full)

    def _join_participants(
        self,
        search: _ParticipantSearch,
        types: list[MemoryType],
        candidates: dict[str, Candidate],
        trace: list[TraceStep],
    ) -> int:
        """Merges the participant searches' knowledge; returns how many episode hits they had."""
        before = len(candidates)
        for name, hits in search.lists.items():
            _merge_episode_hits(name, hits, types, candidates, self._strength)
        detail = {
            "named": search.participants,
            "content": search.content,
            "hits": {name: len(hits) for name, hits in search.lists.items()},
            "new": len(candidates) - before,
        }
        trace.append(TraceStep(step="participants", detail=detail))
        return sum(len(hits) for hits in search.lists.values())

    def _abstract_and_propagate(self, query: str, vector: list[float], searcher: GraphSearcher) -> _Abstraction:
        started = time.perf_counter()
        concepts = self._abstractor.concepts(query, vector, searcher)
        activation: dict[str, float] = {c.id: c.score * c.idf for c in concepts}
        spread: dict[str, tuple[str, float]] = {}
        by_seed: dict[str, float] = {}
        neighbours = searcher.propagate(concepts, self._tuning.concept_fanout)
        for seed, _, weight in neighbours:
            by_seed[seed] = max(by_seed.get(seed, 0.0), weight)
        for seed, neighbour, weight in neighbours:
            if by_seed[seed] <= 0:
                continue
            gained = self._tuning.propagation * activation[seed] * weight / by_seed[seed]
            activation[neighbour.id] = activation.get(neighbour.id, 0.0) + gained
            spread[neighbour.key] = (seed, round(gained, 3))
        df = {c.id: c.df for c in concepts} | {n.id: n.df for _, n, _ in neighbours}
        top = concepts_to_expand(self._tuning, activation, df)
        expansion = searcher.expand(top, vector, self._tuning.per_concept)
        return _Abstraction(concepts, activation, spread, top, expansion, 1000 * (time.perf_counter() - started))

    def _join_abstraction(
        self, abstraction: _Abstraction, candidates: dict[str, Candidate], trace: list[TraceStep]
    ) -> set[str]:
        concepts = {c.key: round(c.score * c.idf, 3) for c in abstraction.concepts}
        trace.append(
            TraceStep(
                step="abstract",
                # ms of this step: how long recall waited for it after the seeds; it ran alongside them.
                detail={"concepts": concepts, "ran_alongside_seed_ms": round(abstraction.ms, 2)},
            )
        )
        spread = dict(list(abstraction.spread.items())[:20])
        trace.append(TraceStep(step="propagate", detail={"activated": len(abstraction.activation), "spread": spread}))
        self._merge_expansion(abstraction.expansion, candidates, "concepts")
        detail = {"concepts_expanded": len(abstraction.expanded), "candidates": len(candidates)}
        trace.append(TraceStep(step="expand", detail=detail))
        return set(abstraction.activation)

    def _context(
        self,
        ranked: list[Ranked],
        vector: list[float],
        types: list[MemoryType],
        searcher: GraphSearcher,
        candidates: dict[str, Candidate],
        trace: list[TraceStep],
    ) -> int:
        """Adds the knowledge of the utterances around the top items' episodes (the turn after a question holds
        its answer, a follow-up says what "this" was); ranked by the anchor's rank, then by closeness to the
        query. Returns how many candidates are new."""
        anchors: dict[str, int] = {}
        for rank, item in enumerate(ranked[: self._tuning.context_items], start=1):
            for proof in item.provenance:
                anchors.setdefault(proof.episode_id, rank)
        entries: list[tuple[int, int, float, str, ItemKind]] = []
        similarities: dict[str, float | None] = {}
        for record in searcher.episode_context(anchors, vector):
            anchor_rank, distance = int(record["anchor_rank"]), int(record["distance"])
            for proposition in record["propositions"]:
                similarities[proposition["id"]] = proposition["similarity"]
                similarity = float(proposition["similarity"] or 0.0)
                entries.append((anchor_rank, distance, -similarity, proposition["id"], ItemKind.PROPOSITION))
            if int(record["knowledge"]) == 0 and MemoryType.EPISODIC in types:
                similarities[record["episode_id"]] = record["episode_similarity"]
                similarity = float(record["episode_similarity"] or 0.0)
                entries.append((anchor_rank, distance, -similarity, record["episode_id"], ItemKind.EPISODE))
        entries.sort()
        new = 0
        for rank, (_, _, _, item_id, kind) in enumerate(entries, start=1):
            if item_id not in candidates:
                new += 1
                candidates[item_id] = Candidate(item_id, kind)
            candidates[item_id].add("context", rank)
            known = similarities[item_id]
            if known is not None:
                candidates[item_id].similarity = float(known)
        trace.append(TraceStep(step="context", detail={"anchors": len(anchors), "items": len(entries), "new": new}))
        return len(entries)

    def _expand(
        self,
        activation: dict[str, float],
        vector: list[float],
        searcher: GraphSearcher,
        candidates: dict[str, Candidate],
        source: str,
    ) -> None:
        self._merge_expansion(searcher.expand(activation, vector, self._tuning.per_concept), candidates, source)

    @staticmethod
    def _merge_expansion(rows: list[dict[str, Any]], candidates: dict[str, Candidate], source: str) -> None:
        ordered = sorted(rows, key=lambda r: (-(float(r["activation"]) * float(r["similarity"])), r["id"]))
        for rank, row in enumerate(ordered, start=1):
            candidate = candidates.setdefault(row["id"], Candidate(row["id"], ItemKind.PROPOSITION))
            candidate.add(source, rank)
            candidate.activation = max(candidate.activation, float(row["activation"]))
            if row["similarity"] is not None:
                candidate.similarity = float(row["similarity"])

    def _rank(
        self,
        request: RecallRequest,
        vector: list[float],
        types: list[MemoryType],
        searcher: GraphSearcher,
        candidates: dict[str, Candidate],
    ) -> list[Ranked]:
        # Ties broken by id throughout: the same memory answers the same query the same way, whatever the
        # order the store hands rows back in.
        fused = sorted(((rrf(c.ranks, c.strengths), c) for c in candidates.values()), key=lambda fc: (-fc[0], fc[1].id))
        pool = fused[: self._tuning.rerank_pool]
        rows = searcher.hydrated  # rows fetched by an earlier hop are not fetched again
        for kind in ItemKind:
            # A similarity already computed is passed along: reading an item's vector is most of hydrating it.
            wanted = [(c.id, c.similarity) for _, c in pool if c.kind is kind and c.id not in rows]
            for row in searcher.hydrate(_LABELS[kind], wanted, vector):
                row["valid_from"] = _time(row["valid_from"])
                row["provenance"] = [_provenance(p) for p in row["provenance"]]
                rows[row["id"]] = row
        max_rrf = (pool[0][0] if pool else 1.0) or 1.0
        max_activation = max((c.activation for _, c in pool), default=0.0) or 1.0
        times = [r["valid_from"] for r in rows.values() if r["valid_from"] is not None]
        oldest, newest = (min(times), max(times)) if times else (None, None)
        w = self._weights
        items = []
        for fused_rank, candidate in pool:
            if candidate.id not in rows:
                continue  # deleted or superseded since it was found
            row = rows[candidate.id]
            components = {
                "relevance": fused_rank / max_rrf,
                "similarity": cosine(row["similarity"]),
                "activation": candidate.activation / max_activation,
                "confidence": float(row["confidence"]),
                "importance": float(row["importance"]),
                "recency": recency(row["valid_from"], oldest, newest),
            }
            score = (
                w.relevance * components["relevance"]
                + w.similarity * components["similarity"]
                + w.activation * components["activation"]
                + w.confidence * components["confidence"]
                + w.importance * components["importance"]
                + w.recency * components["recency"]
            )
            items.append(
                Ranked(
                    id=candidate.id,
                    kind=candidate.kind,
                    text=row["text"],
                    score=round(score, 6),
                    components=components,
                    provenance=row["provenance"],
                    valid_from=row["valid_from"],
                    found_by=list(candidate.found_by),
                )
            )
        items.sort(key=lambda item: (-item.score, item.id))
        if types and types[0] is MemoryType.EPISODIC:
            return _as_episodes(items)
        return items

    def _diversify(self, ranked: list[Ranked], searcher: GraphSearcher, trace: list[TraceStep]) -> list[Ranked]:
        """Reorders the ranking by maximal marginal relevance. Each item's score becomes its final one, the value
        function's score less its redundancy penalty (the MMR gain on the value function's scale), so scores fall
        with the rank; the components keep `value` (the score before) and `redundancy` (its closest cosine to an
        item placed above it). The trace lists the items moved down, each with that closest item."""
        if len(ranked) < 2:
            return ranked
        vectors = searcher.item_vectors(_kinds(ranked))
        if not vectors:
            return ranked
        dimensions = len(next(iter(vectors.values())))
        matrix = np.zeros((len(ranked), dimensions), dtype=np.float32)
        for row, item in enumerate(ranked):
            if item.id in vectors:  # one deleted since it was ranked is redundant with nothing
                matrix[row] = vectors[item.id]
        scores = np.array([item.score for item in ranked], dtype=np.float64)
        trade_off = self._tuning.diversity
        placements = mmr_order(scores, matrix, trade_off)
        # gain = (1 - t) x score / top - t x redundancy; on the score's scale: score - t / (1 - t) x top x redundancy.
        penalty = trade_off / (1.0 - trade_off) * float(np.max(scores))
        moved_down = []
        for new_rank, placement in enumerate(placements, start=1):
            item = ranked[placement.index]
            item.components["value"] = item.score
            item.components["redundancy"] = placement.redundancy
            item.score = round(item.score - penalty * placement.redundancy, 6)
            if new_rank > placement.index + 1 and placement.closest is not None:
                moved_down.append(
                    {
                        "id": item.id,
                        "from": placement.index + 1,
                        "to": new_rank,
                        "closest": ranked[placement.closest].id,
                        "cosine": round(placement.redundancy, 3),
                    }
                )
        detail = {"trade_off": trade_off, "ranked": len(ranked), "moved_down": moved_down[:20]}
        trace.append(TraceStep(step="diversify", detail=detail))
        return [ranked[p.index] for p in placements]

    def _prune(self, ranked: list[Ranked], budget: int, limit: int) -> tuple[list[RecallItem], list[dict[str, Any]]]:
        kept: list[RecallItem] = []
        pruned: list[dict[str, Any]] = []
        used = 0
        for item in ranked:
            if len(kept) >= limit:
                pruned.append({"id": item.id, "reason": f"beyond the limit of {limit} items"})
                continue
            tokens = self._count_tokens(item.text)
            if used + tokens > budget:
                pruned.append({"id": item.id, "reason": f"{tokens} tokens would exceed the budget of {budget}"})
            else:
                kept.append(item.item(tokens))
                used += tokens
        return kept, pruned


def _candidate(candidates: dict[str, Candidate], item_id: str, kind: ItemKind) -> Candidate:
    """The candidate `item_id`, added on first sight."""
    return candidates.setdefault(item_id, Candidate(item_id, kind))


def _merge_episode_hits(
    name: str,
    hits: list[Hit],
    types: list[MemoryType],
    candidates: dict[str, Candidate],
    strength: Callable[[str, Hit], float],
) -> None:
    """An episode found by a search stands for the current knowledge it proves, at the episode's rank: its
    propositions, and the prescriptions drawn from it when procedures are wanted (a step's observation and action
    can match a task where the prescription's summary does not)."""
    for rank, hit in enumerate(hits, start=1):
        vote = strength(name, hit)
        for prop_id in hit.proves:
            _candidate(candidates, prop_id, ItemKind.PROPOSITION).add(name, rank, vote)
        if MemoryType.PROCEDURAL in types:
            for prescription_id in hit.prescribes:
                candidate = _candidate(candidates, prescription_id, ItemKind.PRESCRIPTION)
                candidate.add(name, rank, vote)
        if hit.ever_proved == 0 and MemoryType.EPISODIC in types:  # an utterance no fact was drawn from
            _candidate(candidates, hit.id, ItemKind.EPISODE).add(name, rank, vote)


def concepts_to_expand(
    tuning: RecallTuning, activation: dict[str, float], df: dict[str, int], budget: int | None = None
) -> dict[str, float]:
    """The most activated concepts that are specific enough to expand, within the expansion's mention budget
    (`tuning.expand_mentions` unless given; a concept that would overrun it is passed over for rarer ones)."""
    budget = tuning.expand_mentions if budget is None else budget
    chosen: dict[str, float] = {}
    mentions = 0
    for concept_id, value in sorted(activation.items(), key=lambda kv: (-kv[1], kv[0])):
        if len(chosen) == tuning.expand_concepts:
            break
        concept_df = df.get(concept_id, 0)
        if concept_df > tuning.max_expand_df or mentions + concept_df > budget:
            continue
        chosen[concept_id] = value
        mentions += concept_df
    return chosen


def _time(value: Any) -> datetime | None:
    """A time from a hydrate query: Neo4j's ISO text (`toString`, maybe with a zone name in brackets)."""
    if value is None:
        return None
    if isinstance(value, str):
        return datetime.fromisoformat(value.split("[", 1)[0])
    return value.to_native() if hasattr(value, "to_native") else value  # type: ignore[no-any-return]


def _provenance(row: dict[str, Any]) -> Provenance:
    return Provenance(
        episode_id=row["id"],
        external_id=row.get("external_id") or "",
        source_id=row.get("source_id") or "",
        speaker=row.get("speaker") or "",
        text=row.get("text") or "",
        occurred_at=_time(row.get("occurred_at")),
    )


def _as_episodes(items: list[Ranked]) -> list[Ranked]:
    """Episodic mode: the episodes behind the ranked knowledge, each at the rank of the best item it proves.

    Best first, not grouped by source (the result's `sources` groups them): in source order a token budget would be
    spent on a first source's weaker episodes before a second source's best one."""
    seen: dict[str, Ranked] = {}
    for item in items:
        for proof in item.provenance:
            if proof.episode_id in seen:
                continue
            seen[proof.episode_id] = Ranked(
                id=proof.episode_id,
                kind=ItemKind.EPISODE,
                text=proof.text,
                score=item.score,
                components=dict(item.components),  # its own: diversification adds to it
                provenance=[proof],
                valid_from=proof.occurred_at,
                found_by=[*item.found_by, f"provenance:{item.id}"],
            )
    return list(seen.values())


def _kinds(items: Sequence[Ranked]) -> list[tuple[str, ItemKind]]:
    return [(item.id, item.kind) for item in items]


def by_source(items: Sequence[RecallItem]) -> list[SourceGroup]:
    """The items grouped by the source of their first proving episode, sources in order of their best item."""
    groups: dict[str, list[str]] = {}
    for item in items:
        if item.provenance:
            groups.setdefault(item.provenance[0].source_id, []).append(item.id)
    return [SourceGroup(source_id=source, item_ids=ids) for source, ids in groups.items()]


def browser_cypher(space: str, items: Sequence[RecallItem]) -> str:
    """A Cypher query that shows the returned items, their provenance and concepts in Neo4j Browser (an episode
    item: its source); it never leaves the space, even along a stray edge."""
    ids = json.dumps([item.id for item in items])
    return (
        f"MATCH (n) WHERE n.space = {json.dumps(space)} AND n.id IN {ids}\n"
        "OPTIONAL MATCH (n)-[r:PROVEN_BY|MENTIONS|SOLVES|PART_OF]->(m) WHERE m.space = n.space\n"
        "RETURN n, r, m"
    )
