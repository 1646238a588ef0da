"""Entity pages: documents whose title names what the query or the first ranking's top items name join the
candidates.

- The pages the top items name, by a concept they mention or by a run of their words (list "page"). A multi-hop
  question reaches its bridge this way: "Which county is Knott in?" finds "Knott is a fell in the Lake District", and
  the article "Lake District", which names Cumbria, is that concept's page, though it shares no word with the
  question. A title is often no concept key ("Monsters of Folk", "Act of War: Direct Action": key phrases are runs of
  content words), so an item's own words are looked up too.
- The pages the query names itself (list "named_page"): "What piece by the composer of Bastien und Bastienne ...?"
  is about the article "Bastien und Bastienne", whose passage may not repeat its subject ("It is possibly the easiest
  to perform of Mozart's juvenile works"): its statements match the question weakly, its title exactly.

Conversations and trajectories have no pages (schema 0010)."""

from __future__ import annotations

from dataclasses import dataclass

from engram.extraction.keyphrases import named_titles
from graph.recall.candidates import merge_episode_hits
from graph.recall.hits import Hit
from graph.recall.models import ItemKind, MemoryType
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step


@dataclass(frozen=True)
class PageSearch:
    items: tuple[list[Hit], list[str]]  # the pages the top items name, and the title keys that had one
    query: tuple[list[Hit], list[str]]  # the pages the query names, and theirs


class Pages(Step[PageSearch]):
    name = "pages"

    def runs(self, run: RecallRun) -> bool:
        return bool(run.config.evidence.page_items) and MemoryType.SEMANTIC in run.types and run.searcher.has_pages()

    def find(self, run: RecallRun) -> PageSearch:
        return search_pages(run)

    def apply(self, run: RecallRun, found: PageSearch | None) -> None:
        if found is not None:
            join_pages(run, found)


def search_pages(run: RecallRun) -> PageSearch:
    """The pages the top `page_items` propositions name, ranked by the naming item's rank, and those the query
    names, the longest name first (one round trip)."""
    tuning = run.config
    items: dict[str, tuple[int, list[str]]] = {}
    for rank, item in enumerate(run.ranked[: tuning.evidence.page_items], start=1):
        if item.kind is ItemKind.PROPOSITION:
            items[item.id] = (rank, named_titles(item.text))
    names = named_titles(run.request.query)
    pages = run.searcher.entity_pages(items, names, run.vector, tuning.evidence.page_passages, tuning.evidence.page_k)
    return PageSearch(pages["items"], pages["query"])


def join_pages(run: RecallRun, search: PageSearch) -> None:
    """Merges both kinds of page (lists "page" and "named_page")."""
    before = len(run.candidates)
    (item_hits, item_keys), (query_hits, query_keys) = search.items, search.query
    merge_episode_hits("page", item_hits, run.types, run.candidates, run.vote)
    merge_episode_hits("named_page", query_hits, run.types, run.candidates, run.vote)
    detail = {
        "named_by_items": item_keys[:20],
        "named_by_query": query_keys[:20],
        "passages": len(item_hits) + len(query_hits),
        "new": len(run.candidates) - before,
    }
    run.trace.add("pages", **detail)
    run.unranked_evidence += len(item_hits) + len(query_hits)
