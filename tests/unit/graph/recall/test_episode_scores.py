"""A small space's exact episode scan keeps every episode's score (graph/recall/neo4j_searcher.py `_exact_episodes`): a
later search of some speakers' episodes with the same vector (the participants step) takes its hits from those scores,
ordered as the scan orders them, and reads only their knowledge.

The searcher's reads run through an in-memory `read` (our own function, graph/reads.py) that records each statement
and answers as the scan would."""

from __future__ import annotations

from typing import Any

import pytest

import graph.recall.neo4j_searcher
from graph.recall.neo4j_searcher import GraphSearcher
from graph.recall.search_statements import SpaceSizes

SIZES = {"propositions": 10, "episodes": 6, "prescriptions": 0, "intents": 0, "concepts": 10, "pages": 0,
         "own_indexes": 0, "proposition_chars": 60, "episode_chars": 200}  # fmt: skip
# Every episode of the space: its speaker and its score against VECTOR (e-b and e-c tie).
SCORES = [
    {"id": "e-a", "speaker": "user", "score": 0.9},
    {"id": "e-d", "speaker": "assistant", "score": 0.8},
    {"id": "e-c", "speaker": "user", "score": 0.7},
    {"id": "e-b", "speaker": "user", "score": 0.7},
    {"id": "e-e", "speaker": None, "score": 0.6},
    {"id": "e-f", "speaker": "user", "score": 0.1},
]
VECTOR = [0.1] * 384


def _row(found: dict[str, Any]) -> dict[str, Any]:
    return {"id": found["id"], "score": found["score"], "propositions": [], "prescriptions": [], "knowledge": 0}


class Recorded:
    def __init__(self, scores: list[dict[str, Any]]) -> None:
        self.scores = scores
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def read(self, driver: object, database: str, statement: str, query: object, **params: Any) -> list[Any]:
        self.calls.append((statement, params))
        if statement == "recall/exact_episodes_scored":
            return [{"rows": [_row(found) for found in self.scores[: params["k"]]], "scores": self.scores}]
        if statement == "recall/scored_episodes":
            return [{"rows": [_row(found) for found in params["episodes"]]}]
        return [{"rows": []}]


def _searcher(monkeypatch: pytest.MonkeyPatch, scores: list[dict[str, Any]]) -> tuple[GraphSearcher, Recorded]:
    recorded = Recorded(scores)
    monkeypatch.setattr(graph.recall.neo4j_searcher, "read", recorded.read)
    sizes = SpaceSizes(ttl_s=float("inf"))
    sizes.get("s", lambda: dict(SIZES))
    return GraphSearcher(object(), "neo4j", "s", None, sizes), recorded  # type: ignore[arg-type]


def test_a_speakers_search_with_the_scans_vector_takes_their_best_scored_episodes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    searcher, recorded = _searcher(monkeypatch, SCORES)
    everyone = searcher.dense("episodes", VECTOR, 2)
    assert [hit.id for hit in everyone] == ["e-a", "e-d"]
    users = searcher.dense("episodes", VECTOR, 3, ["user"])
    # The user's three best, score first, then id (as the scan's ORDER BY): e-b before e-c at 0.7.
    assert [(hit.id, hit.score) for hit in users] == [("e-a", 0.9), ("e-b", 0.7), ("e-c", 0.7)]
    assert [statement for statement, _ in recorded.calls] == ["recall/exact_episodes_scored", "recall/scored_episodes"]
    assert recorded.calls[1][1]["episodes"] == [{"id": "e-a", "score": 0.9}, {"id": "e-b", "score": 0.7},
                                                {"id": "e-c", "score": 0.7}]  # fmt: skip
    assert searcher.dense("episodes", VECTOR, 5, ["nobody"]) == []  # none of theirs: nothing sent
    assert len(recorded.calls) == 2


def test_another_vector_or_no_scan_before_scans_the_speakers_episodes(monkeypatch: pytest.MonkeyPatch) -> None:
    searcher, recorded = _searcher(monkeypatch, SCORES)
    searcher.dense("episodes", VECTOR, 3, ["user"])  # no unfiltered scan yet
    searcher.dense("episodes", VECTOR, 3)
    searcher.dense("episodes", [0.2] * 384, 3, ["user"])  # a named participant's search: another vector
    sent = [(statement, params.get("speakers")) for statement, params in recorded.calls]
    assert sent == [
        ("recall/exact_episodes", ["user"]),
        ("recall/exact_episodes_scored", None),
        ("recall/exact_episodes", ["user"]),
    ]


def test_scores_neo4j_could_not_order_as_python_does_are_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    searcher, recorded = _searcher(monkeypatch, [*SCORES, {"id": "e-z", "speaker": "user", "score": None}])
    searcher.dense("episodes", VECTOR, 3)
    searcher.dense("episodes", VECTOR, 3, ["user"])
    assert [statement for statement, _ in recorded.calls] == ["recall/exact_episodes_scored", "recall/exact_episodes"]
