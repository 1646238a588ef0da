from bench.multihop import engram_paragraphs, misses_against_best_flat, passage_metrics
from graph.recall.models import ItemKind, Provenance, RecallItem, RecallResult


def _item(item_id: str, sources: list[str]) -> RecallItem:
    proofs = [
        Provenance(episode_id=f"ep-{s}", external_id="passage-0", source_id=s, speaker="", text="", occurred_at=None)
        for s in sources
    ]
    return RecallItem(
        id=item_id,
        kind=ItemKind.PROPOSITION,
        text=item_id,
        score=1.0,
        components={},
        provenance=proofs,
        tokens=5,
        found_by=[],
    )


def test_items_become_distinct_paragraphs_in_rank_order() -> None:
    items = [_item("a", ["s2"]), _item("b", ["s2", "s1"]), _item("c", ["unknown"]), _item("d", ["s3"])]
    result = RecallResult(query="q", memory_types=[], items=items, tokens=0, hops=1, trace=[], cypher="")
    assert engram_paragraphs(result, {"s1": "p1", "s2": "p2", "s3": "p3"}) == ["p2", "p1", "p3"]


def test_passage_metrics_count_gold_paragraphs_among_the_first_k() -> None:
    ranked = ["p9", "p1", "p8", "p7", "p6", "p2"]
    assert passage_metrics(ranked, ["p1", "p2"]) == {"R@2": 0.5, "R@5": 0.5, "R@10": 1.0, "All@5": 0.0}


def test_misses_are_compared_with_the_best_flat_system_of_each_metric() -> None:
    results = {
        "engram": {"R@5": 88.0, "All@5": 70.0},
        "bm25": {"R@5": 80.0, "All@5": 50.0},
        "dense": {"R@5": 70.0, "All@5": 60.0},
        "hybrid": {"R@5": 75.0, "All@5": 55.0},
    }
    assert misses_against_best_flat(results) == {
        "R@5": {"ratio": 0.6, "best_flat": "bm25"},
        "All@5": {"ratio": 0.75, "best_flat": "dense"},
    }
