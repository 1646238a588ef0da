"""A query that names a time relative to when it is asked ("two weeks ago") finds what happened then."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.embedding import get_embedder
from graph.recall.config import RecallConfig, SearchLimits
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest
from tests.support.jobs import ingest

OUTINGS = [
    ("2023-03-01T18:00:00Z", "I went to a pottery workshop at the community centre with my neighbour."),
    ("2023-05-10T18:00:00Z", "I went to a jazz concert at the Blue Note with my brother."),
    ("2023-05-22T18:00:00Z", "I went to a cooking class about fresh pasta with my colleagues."),
]


def _engine(exact_scan_max: int = SearchLimits().exact_scan_max) -> RecallEngine:
    from graph.driver import get_driver

    embedder = get_embedder()
    config = RecallConfig(search=SearchLimits(exact_scan_max=exact_scan_max))
    return RecallEngine(get_driver(), "neo4j", embedder.encode, embedder.count_tokens, config=config)


@pytest.mark.parametrize("exact_scan_max", [5000, 0], ids=["exact-scan", "vector-index"])
def test_what_happened_at_the_time_the_query_names_comes_first(space: str, exact_scan_max: int) -> None:
    """Three outings on three dates, each told in a session of its own; the question names none of them, only when.
    Through the exact scan of a small space and through a large space's path (dated statements scanned, the episodes
    told then through the vector index)."""
    sessions = [
        {
            "id": f"s{i}",
            "started_at": started,
            "turns": [
                {"speaker": "User", "id": f"U{i}", "text": text},
                {"speaker": "Assistant", "id": f"A{i}", "text": "That sounds like a lovely evening out!"},
            ],
        }
        for i, (started, text) in enumerate(OUTINGS, start=1)
    ]
    ingest(space, [{"type": "conversation", "id": "outings", "sessions": sessions}])
    query = "Where did I go two weeks ago?"
    asked = datetime(2023, 5, 24, 12, tzinfo=UTC)
    engine = _engine(exact_scan_max)
    result = engine.recall(RecallRequest(space=space, query=query, asker="User", now=asked))
    step = next(s for s in result.trace if s.step == "when")
    assert step.detail["days"] == [{"from": "2023-05-07", "to": "2023-05-13"}]  # the week around 10 May
    assert step.detail["episodes"] == 2  # U2 and its reply
    top = result.items[0]
    assert [p.external_id for p in top.provenance] == ["U2"] and "when" in top.found_by

    without = engine.recall(RecallRequest(space=space, query=query, asker="User"))
    assert all(s.step != "when" for s in without.trace)
    assert all("when" not in item.found_by for item in without.items)


@pytest.mark.parametrize("exact_scan_max", [5000, 0], ids=["exact-scan", "vector-index"])
def test_a_statement_that_says_when_it_happened_is_found_by_that_time_not_by_when_it_was_told(
    space: str, exact_scan_max: int
) -> None:
    """'I cleaned my sneakers last month' was told late in May; asked in May about last month, it is found by the time
    it says, April, where nothing was told, and comes first, above the boots cleaned this morning and the shoes bought
    this month."""
    sessions = [
        ("2023-05-10T18:00:00Z", "I bought new running shoes at the mall."),
        ("2023-05-22T18:00:00Z", "I finally got around to cleaning my white Adidas sneakers last month."),
        ("2023-05-23T08:00:00Z", "I cleaned my brown leather boots this morning before work."),
    ]
    ingest(space, [{"type": "conversation", "id": "shoes", "sessions": [
        {"id": f"s{i}", "started_at": started, "turns": [
            {"speaker": "User", "id": f"U{i}", "text": text},
            {"speaker": "Assistant", "id": f"A{i}", "text": "Nice, clean shoes make a difference!"},
        ]}
        for i, (started, text) in enumerate(sessions, start=1)
    ]}])  # fmt: skip
    query = "Which pair of shoes did I clean last month?"
    asked = datetime(2023, 5, 24, 12, tzinfo=UTC)
    result = _engine(exact_scan_max).recall(RecallRequest(space=space, query=query, asker="User", now=asked))
    step = next(s for s in result.trace if s.step == "when")
    assert step.detail["days"] == [{"from": "2023-04-01", "to": "2023-04-30"}]  # the whole month
    assert step.detail["episodes"] == step.detail["stated"] == 1
    top = result.items[0]
    assert [p.external_id for p in top.provenance] == ["U2"] and "when" in top.found_by
