"""Seed: the query's nearest knowledge by each search the route asks for, fused later by reciprocal rank."""

from __future__ import annotations

from collections.abc import Callable

from engram.extraction.keyphrases import FUNCTION_WORDS
from graph.recall.candidates import candidate, merge_episode_hits
from graph.recall.hits import Hit
from graph.recall.lucene import lucene_query
from graph.recall.models import ItemKind, MemoryType
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step

SeedLists = dict[str, list[Hit]]


class Seed(Step[SeedLists]):
    """Runs every search the route asks for side by side; merges their hits as candidates in a fixed list order."""

    name = "seed"

    def find(self, run: RecallRun) -> SeedLists:
        return _search(run)

    def apply(self, run: RecallRun, found: SeedLists | None) -> None:
        _merge(run, found or {})


def _search(run: RecallRun) -> SeedLists:
    k = run.config.seed.seed_k
    searcher, vector, types = run.searcher, run.vector, run.types
    lucene = lucene_query(run.request.query)
    searches: dict[str, Callable[[], list[Hit]]] = {}
    if MemoryType.SEMANTIC in types or MemoryType.EPISODIC in types:
        searches["dense"] = lambda: searcher.dense("propositions", vector, k)
        searches["fulltext"] = lambda: searcher.fulltext("propositions", lucene, k)
        # Turn-level evidence: an utterance's context can match where its sentences alone do not.
        searches["episode_dense"] = lambda: searcher.dense("episodes", vector, k)
        searches["episode_fulltext"] = lambda: searcher.fulltext("episodes", lucene, k)
    task = ""
    if MemoryType.PROCEDURAL in types:
        searches["prescription_dense"] = lambda: searcher.dense("prescriptions", vector, k)
        # A task is named by its actions and states ("put a cool mug in shelf" / "put a mug in shelf"): a procedure's
        # words are searched with every word but the function words.
        task = _task_query(run.request.query)
        searches["prescription_fulltext"] = lambda: searcher.fulltext("prescriptions", task, k)
        # The goals procedures were recorded for: a task worded as a goal finds the prescriptions solving it.
        searches["intent_dense"] = lambda: searcher.dense("intents", vector, k)
    searcher.load_sizes()
    # The searches are independent round trips: run them side by side (the driver is thread-safe).
    futures = {name: run.threads.searches.submit(search) for name, search in searches.items()}
    return {name: future.result() for name, future in futures.items()}


def _task_query(query: str) -> str:
    return lucene_query(query, FUNCTION_WORDS)


def _merge(run: RecallRun, lists: SeedLists) -> None:
    types, searcher = run.types, run.searcher
    candidates = run.candidates
    if "dense" in lists:
        for name in ("dense", "fulltext"):
            for rank, hit in enumerate(lists[name], start=1):
                candidate(candidates, hit.id, ItemKind.PROPOSITION).add(name, rank, run.vote(name, hit))
        for name in ("episode_dense", "episode_fulltext"):
            merge_episode_hits(name, lists[name], types, candidates, run.vote)
    if MemoryType.PROCEDURAL in types:
        for name in ("prescription_dense", "prescription_fulltext"):
            for rank, hit in enumerate(lists[name], start=1):
                candidate(candidates, hit.id, ItemKind.PRESCRIPTION).add(name, rank, run.vote(name, hit))
        for rank, hit in enumerate(lists["intent_dense"], start=1):
            for prescription_id in hit.prescribes:
                candidate(candidates, prescription_id, ItemKind.PRESCRIPTION).add(
                    "intent_dense", rank, run.vote("intent_dense", hit)
                )
    hits = {name: len(found) for name, found in lists.items()}
    detail: dict[str, object] = {"lucene": lucene_query(run.request.query), "hits": hits, "candidates": len(candidates)}
    # The words whose holders vote fully in the full-text lists, per label that had any (a copy: the trace keeps it).
    distinctive = {label: terms for label, terms in searcher.distinctive.items() if terms}
    if distinctive:
        detail["distinctive"] = distinctive
    if MemoryType.PROCEDURAL in types:
        detail["task_lucene"] = _task_query(run.request.query)
    run.trace.add("seed", **detail)
