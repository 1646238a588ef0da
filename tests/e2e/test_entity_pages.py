"""Entity pages: a document whose title names a concept the top items mention joins the candidates, so the second hop
of a question is found though it shares no word with it."""

from __future__ import annotations

from typing import Any

import neo4j
import pytest

from engram.embedding import get_embedder
from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest, RecallResult
from tests.support.jobs import ingest

ARTICLES = {
    "Knott (Lake District)": "Knott is a fell in the Lake District of England, rising to 710 metres among the "
    "Northern Fells.",
    "Lake District": "The Lake District is a mountainous region of North West England, lying entirely within Cumbria.",
    "Skiddaw": "Skiddaw is a mountain near Keswick whose summit is 931 metres above sea level.",
    "Pennines": "The Pennines are a range of hills separating North West England from Yorkshire.",
    "Snowdonia": "Snowdonia is a mountainous national park in the north of Wales around Snowdon.",
    "Ben Nevis": "Ben Nevis is the highest mountain of the British Isles, near the town of Fort William.",
    "Yorkshire Dales": "The Yorkshire Dales are upland valleys in the county of North Yorkshire.",
    "Peak District": "The Peak District is an upland area at the southern end of the Pennines, mostly in the county "
    "of Derbyshire.",
}
QUERY = "Which county is the fell Knott in?"


def _documents() -> list[dict[str, Any]]:
    return _documents_of(ARTICLES, "article")


def _engine(tuning: RecallConfig) -> RecallEngine:
    from graph.driver import get_driver

    embedder = get_embedder()
    return RecallEngine(get_driver(), "neo4j", embedder.encode, embedder.count_tokens, config=tuning)


def _rank_of(result: RecallResult, title: str) -> int:
    """The rank of the first item drawn from the article (a passage's episode is read under its title)."""
    ranks = [i for i, item in enumerate(result.items) if any(p.text.startswith(f"{title}\n") for p in item.provenance)]
    return ranks[0] if ranks else len(result.items)


def _pages_step(result: RecallResult) -> dict[str, Any]:
    """The detail of the recall's "pages" step, which must have run (once) and looked up at least one page."""
    steps = [s for s in result.trace if s.step == "pages"]
    assert len(steps) == 1, f"the pages step did not run: trace {[s.step for s in result.trace]}"
    detail = steps[0].detail
    assert detail["passages"] > 0, f"the pages step found no page: {detail}"
    return detail


def _documents_of(articles: dict[str, str], prefix: str) -> list[dict[str, Any]]:
    return [
        {"type": "document", "id": f"{prefix}-{i}", "title": title, "text": text}
        for i, (title, text) in enumerate(articles.items())
    ]


def _page_found(request: RecallRequest, title: str, key: str, found_by: str) -> int:
    """Recalls with and without pages: the page `title` (trace key `key`, list `found_by`) must come first or second
    with them and lower without them; returns its rank with them."""
    result = _engine(RecallConfig()).recall(request)
    pages = _pages_step(result)
    assert key in pages["named_by_query" if found_by == "named_page" else "named_by_items"], pages
    rank = _rank_of(result, title)
    assert rank < 2 and found_by in result.items[rank].found_by
    assert rank < _rank_of(_engine(RecallConfig(page_items=0)).recall(request), title)
    return rank


@pytest.fixture()
def articles(space: str) -> str:
    ingest(space, _documents())
    return space


def test_the_page_of_a_concept_the_first_hop_mentions_brings_the_second_hop(articles: str) -> None:
    """Knott's article names the Lake District; the Lake District's article names the county. The question shares
    only "county" with the distractors (Yorkshire, Derbyshire) and nothing with the bridge."""
    request = RecallRequest(space=articles, query=QUERY, limit=10)
    result = _engine(RecallConfig()).recall(request)
    pages = _pages_step(result)
    assert "lake district" in pages["named_by_items"], pages
    rank = _rank_of(result, "Lake District")
    assert rank < 3 and "page" in result.items[rank].found_by

    without = _engine(RecallConfig(page_items=0)).recall(request)
    assert all(s.step != "pages" for s in without.trace)
    assert all("page" not in item.found_by for item in without.items)
    assert rank < _rank_of(without, "Lake District")


def test_a_conversation_titled_like_a_concept_is_no_page(driver: neo4j.Driver, space: str) -> None:
    """A chat's title names the chat, not a subject: it is never looked up as a page."""
    chat = {
        "type": "conversation",
        "id": "chat",
        "title": "Lake District",
        "sessions": [
            {
                "id": "s1",
                "started_at": "2024-03-02T10:00:00Z",
                "turns": [
                    {"speaker": "Ana", "id": "T1", "text": "We hiked up Knott in the Lake District on Sunday."},
                    {"speaker": "Ben", "id": "T2", "text": "My cousin bought a red bicycle for the summer."},
                ],
            }
        ],
    }
    ingest(space, [chat, *_documents()[:1]])
    records, _, _ = driver.execute_query(
        "MATCH (s:Source {space: $space}) RETURN s.kind AS kind, s.title_key AS key ORDER BY kind", space=space
    )
    assert [(r["kind"], r["key"]) for r in records] == [("conversation", None), ("document", "knott")]
    result = _engine(RecallConfig()).recall(RecallRequest(space=space, query="Where did Ana hike on Sunday?"))
    pages = _pages_step(result)  # the space has a document, so the lookup runs
    assert "knott" in pages["named_by_items"], pages  # the document's title is a page
    assert "lake district" not in pages["named_by_items"], pages  # the chat's title is none


def test_a_space_without_documents_looks_for_no_page(space: str, conversation: dict[str, Any]) -> None:
    """No document, no page: the lookup is not run (its space's sizes say so), so a chat's recall costs nothing more."""
    ingest(space, [conversation])
    result = _engine(RecallConfig()).recall(RecallRequest(space=space, query="What did Melanie paint?"))
    assert result.items and all(s.step != "pages" for s in result.trace)


OPERAS = {
    "Bastien und Bastienne": "Mozart wrote the singspiel at the age of twelve, for a garden theatre in Vienna.",
    "Don Giovanni": "Don Giovanni is an opera in two acts by Mozart, first performed in Prague in 1787.",
    "The Magic Flute": "The Magic Flute is an opera by Mozart to a German libretto, first performed in Vienna.",
    "Idomeneo": "Idomeneo is an opera seria by Mozart, first performed in Munich in 1781.",
    "Cosi fan tutte": "Cosi fan tutte is an opera buffa by Mozart, first performed at the Burgtheater in Vienna.",
    "Fidelio": "Fidelio is the only opera by Beethoven, first performed in Vienna in 1805.",
}


def test_the_page_the_query_names_comes_though_its_passage_does_not_name_its_subject(space: str) -> None:
    """The article "Bastien und Bastienne" never says its own title; only the title ties it to the question, which
    shares "Mozart", "opera", "first performed" and "Vienna" with the other articles."""
    ingest(space, _documents_of(OPERAS, "opera"))
    request = RecallRequest(space=space, query="Where was the Mozart opera Bastien und Bastienne first performed?")
    _page_found(request, "Bastien und Bastienne", "bastien und bastienne", "named_page")


ALBUMS = {
    "Transfiguration of Vincent": "Transfiguration of Vincent is the third studio album by the band Monsters of Folk.",
    "Monsters of Folk": "The supergroup's four members met on tour and live in Portland and Omaha.",
    "We Move": "We Move is the third studio album by Irish singer-songwriter James Vincent McMorrow.",
    "Awake (Josh Groban album)": "Awake is the third studio album by the singer Josh Groban, a Los Angeles native.",
    "Strange Mercy": "Strange Mercy is the third studio album by a band from Tulsa, Oklahoma.",
    "Fionn Regan": "Fionn Regan is an Irish folk singer-songwriter from Bray in County Wicklow.",
}


def test_the_page_of_a_name_a_top_item_says_comes_though_no_concept_holds_it(driver: neo4j.Driver, space: str) -> None:
    """The title "Monsters of Folk" is no concept key (key phrases are runs of content words: "monster", "folk"),
    yet the top item says it, and the article titled so holds the answer: the items' own words are looked up too."""
    ingest(space, _documents_of(ALBUMS, "album"))
    records, _, _ = driver.execute_query(
        "MATCH (c:Concept {space: $space, key: 'monsters of folk'}) RETURN count(c) AS n", space=space
    )
    assert records[0]["n"] == 0
    request = RecallRequest(space=space, query="Transfiguration of Vincent is by a band from what city?")
    _page_found(request, "Monsters of Folk", "monsters of folk", "page")
