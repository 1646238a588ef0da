"""A small space's full-text ranking is its own: scored with its own term statistics, it does not move when another
space writes the query's words (graph/recall/bm25.py). Scored with the shared index's, it did."""

from __future__ import annotations

from collections.abc import Iterator

import neo4j
import pytest

from graph.recall.neo4j_searcher import GraphSearcher
from tests.support.jobs import ingest


@pytest.fixture()
def flooding_space(driver: neo4j.Driver, space: str) -> Iterator[str]:
    # Its name holds the first space's as a run of parts, so the scoped query also matches its documents.
    name = f"{space}-flood"
    yield name
    driver.execute_query("MATCH (n {space: $space}) DETACH DELETE n", space=name)


def _turns(texts: list[str]) -> list[dict[str, object]]:
    turns = [{"speaker": "Ann", "id": f"D1:{i}", "text": text} for i, text in enumerate(texts, start=1)]
    return [{"type": "conversation", "id": "c", "sessions": [{"id": "s1", "turns": turns}]}]


def test_another_space_writing_a_query_word_does_not_reorder_this_space(
    driver: neo4j.Driver, space: str, flooding_space: str
) -> None:
    tag = space.replace("-", "")[-8:]
    rare, common = f"zqr{tag}", f"zqc{tag}"  # words no other space holds
    # Here `rare` is in one utterance and `common` in two: the one holding `rare` answers a query for both best.
    ingest(space, _turns([f"The {rare} arrived on Monday.", f"The {common} left on Tuesday.", f"A {common} again."]))

    def first(space_statistics: bool) -> str:
        searcher = GraphSearcher(driver, "neo4j", space, None, space_statistics=space_statistics)
        hits = searcher.fulltext("episodes", f"{rare} OR {common}", 10)
        assert len(hits) == 3  # only this space's, though the scoped query matches the other's too
        text = driver.execute_query("MATCH (e:Episode {id: $id}) RETURN e.text AS t", id=hits[0].id).records[0]["t"]
        return str(text)

    assert rare in first(True) and rare in first(False)
    # Another space writes `rare` thirty times: over the whole index it is now the common word.
    ingest(flooding_space, _turns([f"Note {i}: the {rare} is everywhere." for i in range(30)]))
    assert rare in first(True)
    assert common in first(False)  # the shared index's statistics let the other space reorder this one
