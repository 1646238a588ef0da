"""Entity pages: the documents whose title names a concept the first ranking's top items mention join the candidates
(list "page"). A multi-hop question reaches its bridge this way: "Which county is Knott in?" finds "Knott is a fell
in the Lake District", and the article "Lake District", which names Cumbria, is that concept's page, though it
shares no word with the question. Conversations and trajectories have no pages (schema 0010)."""

from __future__ import annotations

from dataclasses import dataclass

from graph.recall.candidates import Ranked, merge_episode_hits
from graph.recall.models import ItemKind, TraceStep
from graph.recall.run import RecallRun
from graph.recall.search import Hit


@dataclass(frozen=True)
class PageSearch:
    hits: list[Hit]
    keys: list[str]  # the concepts whose page was found


def search_pages(run: RecallRun, ranked: list[Ranked]) -> PageSearch:
    """The pages of the concepts the top `page_items` propositions mention, ranked by the mentioning item's rank."""
    tuning = run.tuning
    items: dict[str, int] = {}
    for rank, item in enumerate(ranked[: tuning.page_items], start=1):
        if item.kind is ItemKind.PROPOSITION:
            items[item.id] = rank
    hits, keys = run.searcher.entity_pages(items, run.vector, tuning.page_passages, tuning.page_k)
    return PageSearch(hits, keys)


def join_pages(run: RecallRun, search: PageSearch) -> int:
    """Merges the pages' knowledge; returns how many passages they had."""
    before = len(run.candidates)
    merge_episode_hits("page", search.hits, run.types, run.candidates, run.vote)
    detail = {"concepts": search.keys[:20], "passages": len(search.hits), "new": len(run.candidates) - before}
    run.trace.append(TraceStep(step="pages", detail=detail))
    return len(search.hits)
