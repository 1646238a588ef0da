"""The in-memory searcher (tests/support/memory_searcher.py) answers each operation as its Cypher statement does."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from graph.recall.hits import ConceptHit, Hit, TimeWindow
from graph.recall.models import ItemKind
from graph.recall.searcher import Searcher
from graph.recall.steps.relevance import unmentioned_names
from tests.support.memory_searcher import MemoryGraph, MemorySearcher
from tests.support.toy_embedder import ToyEmbedder

T0 = datetime(2024, 3, 1, 9, tzinfo=UTC)


def day(n: float) -> datetime:
    return T0 + timedelta(days=n)


def vector(text: str) -> list[float]:
    return [float(x) for x in ToyEmbedder().encode([text])[0]]


@pytest.fixture()
def chat() -> MemoryGraph:
    """A conversation of four turns, what was learnt from it, and one later update."""
    g = MemoryGraph(ToyEmbedder().encode, space="toy", now=T0)  # what is added is recorded at g.now
    g.add_episode("e1", "I adopted a beagle named Rex", source="chat", speaker="alice", occurred_at=day(0))
    g.add_episode("e2", "Rex sounds like a lovely dog", source="chat", speaker="bob", occurred_at=day(0.01))
    g.add_proposition("p1", "Alice adopted a beagle named Rex", proven_by=["e1"], concepts=["alice", "rex"])
    g.add_proposition("p2", "Alice lives in Berlin", proven_by=["e1"], concepts=["alice", "berlin"])
    g.add_proposition("p4", "Alice got a beagle called Rex", proven_by=["e2"], concepts=["rex"])
    g.supersede("p1", "p4", reason="merge")  # p1 stands for p4 and gains its proof (e2)
    g.now = day(10)
    g.add_episode("e3", "Last week I moved to Lisbon for work", source="chat", speaker="alice", occurred_at=day(10))
    g.add_episode("e4", "How is the weather in Lisbon", source="chat", speaker="bob", occurred_at=day(10.01))
    g.add_proposition("p3", "Alice moved to Lisbon", proven_by=["e3"], concepts=["alice", "lisbon"], valid_from=day(3))
    g.supersede("p3", "p2", reason="conflict")  # no carry: p3 does not stand for p2
    return g


def test_it_is_a_searcher() -> None:
    searcher: Searcher = MemorySearcher(MemoryGraph(space="empty"))
    assert searcher.space == "empty"
    assert searcher.dense("propositions", [1.0, 0.0], 5) == []
    assert searcher.fulltext("episodes", "", 5) == [] and searcher.fulltext("episodes", "rex", 5) == []


def test_dense_is_an_exact_scan_nearest_first_on_neo4js_scale_ties_by_id() -> None:
    g = MemoryGraph(space="s")
    g.add_proposition("b", "far", embedding=[0.0, 1.0, 0.0])
    g.add_proposition("z", "near", embedding=[0.8, 0.6, 0.0])
    g.add_proposition("y", "same as z", embedding=[0.8, 0.6, 0.0])
    g.add_proposition("a", "nearest", embedding=[2.0, 0.0, 0.0])  # not normalised: cosine all the same
    g.add_proposition("none", "no embedding")
    hits = MemorySearcher(g).dense("propositions", [1.0, 0.0, 0.0], 3)
    assert [(h.id, round(h.score, 6)) for h in hits] == [("a", 1.0), ("y", 0.9), ("z", 0.9)]  # (1 + cos) / 2
    assert [h.id for h in MemorySearcher(g).dense("propositions", [1.0, 0.0, 0.0], 10)] == ["a", "y", "z", "b"]


def test_dense_episodes_keep_the_speakers_and_carry_their_knowledge(chat: MemoryGraph) -> None:
    searcher = MemorySearcher(chat)
    hits = searcher.dense("episodes", vector("adopted a beagle"), 4)
    assert hits[0].id == "e1" and [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    e1 = hits[0]
    # p2 was superseded (not current), but e1 proved it: it is no chit-chat.
    assert e1.proves == ("p1",) and e1.ever_proved == 2 and e1.text == ""
    bob = searcher.dense("episodes", vector("adopted a beagle"), 4, speakers=["bob"])
    assert {h.id for h in bob} == {"e2", "e4"}
    e2 = next(h for h in bob if h.id == "e2")
    assert e2.proves == ("p1",) and e2.ever_proved == 2  # p1 inherited e2's proof when p4 was merged into it


def test_superseded_knowledge_is_left_out_unless_asked_known_at_before_it_expired(chat: MemoryGraph) -> None:
    query = vector("Alice lives in Berlin")
    now = [h.id for h in MemorySearcher(chat).dense("propositions", query, 5)]
    assert "p2" not in now and "p3" in now
    before = [h.id for h in MemorySearcher(chat, known_at=day(5)).dense("propositions", query, 5)]
    assert before[0] == "p2" and "p3" not in before  # p3 was recorded on day 10
    assert [h.id for h in MemorySearcher(chat, known_at=T0 - timedelta(days=1)).dense("propositions", query, 5)] == []
    # as of then, e3 was not told yet, and e1's knowledge was p1 and p2
    assert "e3" not in {h.id for h in MemorySearcher(chat, known_at=day(5)).dense("episodes", query, 5)}
    e1 = MemorySearcher(chat, known_at=day(5)).dense("episodes", vector("I adopted a beagle named Rex"), 1)[0]
    assert e1.proves == ("p1", "p2")


def test_a_merged_statements_hit_counts_for_its_survivor(chat: MemoryGraph) -> None:
    searcher = MemorySearcher(chat)
    hits = searcher.dense("propositions", vector("Alice got a beagle called Rex"), 5)
    assert hits[0].id == "p1" and "p4" not in {h.id for h in hits}
    # p4's own score, higher than p1's: the survivor takes the best of its statements'
    p4 = chat.propositions["p4"].embedding
    assert p4 is not None and hits[0].score == pytest.approx((1 + float(p4 @ p4)) / 2)  # its own vector: cosine 1
    found = searcher.fulltext("propositions", "got OR called", 5)
    assert [h.id for h in found] == ["p1"] and found[0].text == "Alice adopted a beagle named Rex"


def test_fulltext_ranks_the_rarer_term_higher_and_reports_the_distinctive_ones() -> None:
    g = MemoryGraph(space="s")
    for i, text in enumerate(["Rex likes the park", "Bob walks in the park", "Ann walks in the park", "Tea time"]):
        g.add_proposition(f"p{i}", text)
    g.add_episode("e1", "the parks were full of dogs")
    searcher = MemorySearcher(g, distinctive_share=0.3)
    hits = searcher.fulltext("propositions", "rex OR park", 5)
    assert [h.id for h in hits] == ["p0", "p1", "p2"]  # "tea time" holds neither term
    assert hits[0].score > hits[1].score > 0 and hits[1].score == hits[2].score
    assert [h.coverage for h in hits] == [1.0, 0.0, 0.0]  # "rex" is distinctive (1 of 4), "park" (3 of 4) is not
    assert searcher.distinctive == {"propositions": ["rex"]}
    assert [h.id for h in searcher.fulltext("propositions", "rex OR park", 1)] == ["p0"]
    episodes = searcher.fulltext("episodes", "park", 5)  # the English analyzer's stem: parks -> park
    assert [h.id for h in episodes] == ["e1"] and episodes[0].text == "the parks were full of dogs"
    assert searcher.distinctive["episodes"] == []  # the one episode holds it: in a space of one, nothing is rare


def test_fulltext_prescriptions_read_their_terms_and_only_active_ones() -> None:
    g = MemoryGraph(space="s")
    g.add_intent("i1", "cook pasta")
    g.add_prescription("r1", "To cook pasta: 1. boil water", intent="i1", terms="cook pasta boil water")
    g.add_prescription("r2", "To clean: 1. wipe the pasta pot", terms="clean wipe")
    g.add_prescription("r3", "To cook pasta: 1. boil", terms="cook pasta boil", status="retired")
    hits = MemorySearcher(g).fulltext("prescriptions", "pasta OR boil", 5)
    assert [h.id for h in hits] == ["r1"] and hits[0].coverage == 1.0


def test_intents_stand_for_the_active_prescriptions_solving_them() -> None:
    g = MemoryGraph(space="s", now=T0)
    g.add_intent("i1", "cook pasta", embedding=[1.0, 0.0])
    g.add_intent("i2", "clean up", embedding=[0.0, 1.0])
    g.add_prescription("r1", "To cook pasta: boil", intent="i1", embedding=[1.0, 0.0])
    g.add_prescription("r2", "To cook pasta: bake", intent="i1", embedding=[1.0, 0.0], status="retired")
    g.add_prescription("r3", "To cook pasta: fry", intent="i1", embedding=[1.0, 0.0], recorded_at=day(3))
    (hit,) = MemorySearcher(g).dense("intents", [1.0, 0.1], 1)
    assert hit == Hit("i1", hit.score, prescribes=("r1", "r3")) and hit.score == pytest.approx(0.997519, abs=1e-6)
    assert MemorySearcher(g, known_at=day(1)).dense("intents", [1.0, 0.1], 1)[0].prescribes == ("r1",)
    assert [h.id for h in MemorySearcher(g).dense("prescriptions", [1.0, 0.0], 5)] == ["r1", "r3"]


def test_concepts_by_key_with_aliases_and_dense_concepts_above_the_floor(chat: MemoryGraph) -> None:
    chat.alias("lisbon", "lisboa")
    searcher = MemorySearcher(chat)
    # 2 active propositions (p1, p3); "alice" is mentioned by both: idf log(3 / 2); "lisboa" by none
    found = searcher.concepts_by_key(["alice", "lisbon", "nowhere"])
    assert [(c.key, c.df) for c in found] == [("alice", 2), ("lisbon", 1), ("lisboa", 0)]
    assert found[0].idf == pytest.approx(np.log(3 / 2)) and found[2].idf == 1.0 and found[0].score == 1.0
    dense = searcher.dense_concepts(vector("lisbon"), 3, min_score=0.9)
    assert [c.key for c in dense] == ["lisbon"] and dense[0].score == pytest.approx(1.0)
    everything = searcher.dense_concepts(vector("lisbon"), 9, min_score=0.0)
    assert len(everything) == len(chat.concepts) and everything[0].key == "lisbon"


def test_propagation_weighs_an_association_by_its_count_and_both_idfs(chat: MemoryGraph) -> None:
    chat.associate("alice", "rex", 2)
    chat.associate("alice", "lisbon", 1)
    chat.associate("alice", "berlin", 5)  # berlin's statement was superseded: no idf, weight 0
    searcher = MemorySearcher(chat)
    alice = searcher.concepts_by_key(["alice"])[0]
    rows = searcher.propagate([alice], fanout=2)
    idf = {c.key: c.idf for c in searcher.concepts_by_key(["alice", "rex", "lisbon"])}
    assert [(seed, c.key) for seed, c, _ in rows] == [("concept:alice", "rex"), ("concept:alice", "lisbon")]
    assert [weight for *_, weight in rows] == pytest.approx(
        [2 * idf["alice"] * idf["rex"], idf["alice"] * idf["lisbon"]]
    )
    assert [c.key for _, c, _ in searcher.propagate([alice], fanout=5)][-1] == "berlin"
    chat.refresh_associations()  # from co-mentions of active statements
    assert chat.associations == {frozenset({"concept:alice", "concept:rex"}): 1.0,
                                 frozenset({"concept:alice", "concept:lisbon"}): 1.0}  # fmt: skip


def test_expansion_keeps_the_closest_current_mentions_per_concept(chat: MemoryGraph) -> None:
    chat.add_proposition("p5", "Alice walks Rex every morning", concepts=["alice", "rex"])
    alice, rex = chat.concept("alice").id, chat.concept("rex").id
    searcher = MemorySearcher(chat)
    rows = searcher.expand({alice: 0.5}, vector("Alice walks Rex"), per_concept=2)
    assert [r["id"] for r in rows] == ["p5", "p1"] and all(r["via"] == ["alice"] for r in rows)  # p2: superseded
    rows = searcher.expand({alice: 0.5, rex: 0.25}, vector("Alice walks Rex"), per_concept=1)
    assert rows == [
        {"id": "p5", "activation": 0.75, "via": ["alice", "rex"], "similarity": pytest.approx(1.0, abs=0.2)}
    ]
    assert MemorySearcher(chat, known_at=day(5)).expand({alice: 1.0}, vector("Berlin"), 1)[0]["id"] == "p2"


def test_hydrate_gives_the_rows_for_ranking(chat: MemoryGraph) -> None:
    chat.episodes["e1"].external_id = "D1:1"
    searcher = MemorySearcher(chat)
    rows = searcher.hydrate("propositions", [("p1", 0.42), ("p3", None), ("gone", 0.9)], vector("Lisbon"))
    assert [r["id"] for r in rows] == ["p1", "p3"]
    p1, p3 = rows
    assert p1["similarity"] == 0.42 and p3["similarity"] > 0.5
    assert [e["id"] for e in p1["provenance"]] == ["e1", "e2"]  # by when they were told
    told = {"external_id": "D1:1", "source_id": "chat", "speaker": "alice", "occurred_at": "2024-03-01T09:00:00Z"}
    assert p1["provenance"][0] == {"id": "e1", "text": "I adopted a beagle named Rex", **told}
    assert p1["statements"] == 2 and p3["statements"] == 1  # e1 yielded p1 and p2; e2 p4 and then p1
    assert (p1["importance"], p1["confidence"], p1["valid_from"]) == (0.5, 0.7, None)
    assert p3["valid_from"] == "2024-03-04T09:00:00Z"
    (episode,) = searcher.hydrate("episodes", [("e3", None)], vector("Lisbon"))
    assert (episode["valid_from"], episode["confidence"], episode["statements"]) == ("2024-03-11T09:00:00Z", 0.6, 1)
    assert searcher.hydrate("episodes", [], vector("x")) == []


def test_hydrate_prescriptions_carry_their_intent_and_importance() -> None:
    g = MemoryGraph(ToyEmbedder().encode, space="s")
    g.add_episode("t1", "go to the kitchen", source="trajectory")
    g.add_intent("i1", "cook pasta")
    g.add_prescription("r1", "To cook pasta: 1. boil water", intent="i1", proven_by=["t1"], return_score=10.0)
    (row,) = MemorySearcher(g).hydrate("prescriptions", [("r1", None)], vector("boil water"))
    assert (row["intent"], row["importance"], row["confidence"]) == ("cook pasta", 1.0, 0.7)
    assert [e["id"] for e in row["provenance"]] == ["t1"] and "statements" not in row


def test_episode_context_is_two_turns_after_and_one_before(chat: MemoryGraph) -> None:
    rows = MemorySearcher(chat).episode_context({"e2": 3, "e4": 1}, vector("Lisbon"))
    assert [(r["anchor_rank"], r["episode_id"], r["distance"]) for r in rows] == [
        (3, "e3", 1),
        (3, "e4", 2),
        (3, "e1", 1),
        (1, "e3", 1),
    ]
    e3 = rows[0]
    assert e3["knowledge"] == 1 and [p["id"] for p in e3["propositions"]] == ["p3"]
    assert e3["episode_similarity"] > rows[2]["episode_similarity"]
    assert rows[2]["knowledge"] == 2 and [p["id"] for p in rows[2]["propositions"]] == ["p1"]
    # as of day 5, e3 and e4 were not told yet
    before = MemorySearcher(chat, known_at=day(5)).episode_context({"e2": 1}, vector("x"))
    assert [r["episode_id"] for r in before] == ["e1"]


def test_episodes_within_a_window_stated_ones_first(chat: MemoryGraph) -> None:
    chat.add_episode("e5", "Lisbon has great custard tarts", source="other", occurred_at=day(3.5))
    window = TimeWindow(day(2), day(12), day(3), day(4))  # p3 says "day 3", told on day 10 in e3
    found = MemorySearcher(chat).episodes_within([window], vector("custard tarts"), 5)
    assert found.stated == 1
    assert [h.id for h in found.hits] == ["e3", "e5", "e4"]  # e5 is closer, but e3 holds a statement dated then
    assert found.hits[0].proves == ("p3",)
    told_only = TimeWindow(day(9), day(11), day(9), day(11))
    found = MemorySearcher(chat).episodes_within([told_only], vector("weather"), 1)
    assert (found.stated, [h.id for h in found.hits]) == (0, ["e4"])
    # p1 is dated by when it was told (valid_from None here; the same time would be skipped too)
    assert MemorySearcher(chat).episodes_within([], vector("x"), 3).hits == []


def test_entity_pages_by_the_items_concepts_and_by_the_query_names() -> None:
    g = MemoryGraph(ToyEmbedder().encode, space="s")
    g.add_source("wiki-lakes", page_title="The Lake District")
    g.add_episode("w1", "The Lake District is in Cumbria", source="wiki-lakes")
    g.add_episode("w2", "It has many fells and lakes", source="wiki-lakes")
    g.add_episode("w3", "Knott is a fell", source="wiki-knott")
    g.add_proposition("k1", "Knott is a fell in the Lake District", proven_by=["w3"], concepts=["lake district"])
    g.add_proposition("k2", "The Lake District is in Cumbria", proven_by=["w1"], concepts=["lake district"])
    searcher = MemorySearcher(g)
    assert searcher.has_pages()
    pages = searcher.entity_pages({"k1": (1, []), "k2": (2, [])}, [], vector("Which county is Cumbria"), 1, 5)
    (hits, keys) = pages["items"]
    assert [h.id for h in hits] == ["w1"] and keys == ["lake district"]  # k2 names its own document: not a page
    assert hits[0].proves == ("k2",)
    pages = searcher.entity_pages({}, ["knott", "lake district"], vector("fells and lakes"), 2, 1)
    assert pages["items"] == ([], []) and [h.id for h in pages["query"][0]] == ["w2"]
    assert searcher.entity_pages({}, [], vector("x"), 2, 2) == {"items": ([], []), "query": ([], [])}
    assert not MemorySearcher(MemoryGraph()).has_pages()


def test_top_items_and_vectors_are_read_once_and_statements_counted(chat: MemoryGraph) -> None:
    searcher = MemorySearcher(chat)
    searcher.load_sizes()
    searcher.load_sizes()
    assert searcher.queries == 1
    concepts = searcher.top_items(["p1", "p3"], [("p1", ItemKind.PROPOSITION), ("e2", ItemKind.EPISODE)])
    assert [c.key for c in concepts] == ["alice", "rex", "lisbon"] and all(isinstance(c, ConceptHit) for c in concepts)
    assert searcher.queries == 2
    vectors = searcher.item_vectors([("p1", ItemKind.PROPOSITION), ("e2", ItemKind.EPISODE)])
    assert searcher.queries == 2  # already fetched alongside the concepts
    assert vectors["p1"] == pytest.approx(vector("Alice adopted a beagle named Rex"))
    assert set(searcher.item_vectors([("gone", ItemKind.EPISODE), ("e2", ItemKind.EPISODE)])) == {"e2"}
    assert searcher.queries == 3


def test_the_toy_embedder_is_deterministic_normalised_and_word_based() -> None:
    embedder = ToyEmbedder()
    a, b, c, empty = embedder.encode(["Rex the beagle", "the beagle Rex", "quarterly tax forms", ""])
    assert a.dtype == np.float32 and a.shape == (256,)
    assert float(np.linalg.norm(a)) == pytest.approx(1.0) and not empty.any()
    assert float(a @ b) > 0.5 > float(a @ c) >= 0
    assert np.array_equal(embedder.encode(["Rex the beagle"])[0], a)
    assert embedder.count_tokens("Rex, the beagle.") == 5


def test_the_builder_refuses_an_id_twice_and_a_page_title_keeps_its_sources_episodes() -> None:
    g = MemoryGraph(space="s")
    g.add_episode("e1", "first passage", source="doc")
    with pytest.raises(ValueError, match="added already"):
        g.add_episode("e1", "again", source="doc")
    g.add_source("doc", page_title="Alphaville (band)")
    assert (g.sources["doc"].title_key, g.sources["doc"].episodes) == ("alphaville", ["e1"])


def test_a_name_is_mentioned_by_a_text_a_speaker_or_a_pages_title_and_only_once_recorded() -> None:
    g = MemoryGraph(ToyEmbedder().encode, space="names", now=T0)
    g.add_source("handbook", page_title="Harbor Lab")
    g.add_episode("e1", "Badges are at the front desk.", source="handbook")
    g.add_episode("e2", "I moved to Lisbon.", source="chat", speaker="Ana Lopes")
    g.now = T0 + timedelta(days=1)
    g.add_episode("e3", "We met in Porto.", source="chat", speaker="Ben")
    names = ["Harbor", "Lisbon", "Lopes", "Porto", "Madrid", "Ben"]
    assert MemorySearcher(g).unmentioned(names) == ["Madrid"]
    assert MemorySearcher(g, known_at=T0).unmentioned(names) == ["Porto", "Madrid", "Ben"]


def test_a_place_is_mentioned_by_its_adjective() -> None:
    g = MemoryGraph(ToyEmbedder().encode, space="names", now=T0)
    g.add_episode("e1", "Poke is a Hawaiian staple of raw fish.", source="chat", speaker="Assistant")
    g.add_episode("e2", "I booked a resort in Maui.", source="chat", speaker="User")
    searcher = MemorySearcher(g)
    assert unmentioned_names(searcher, "How much did I spend per night in Hawaii?") == []
    assert unmentioned_names(searcher, "How much did I spend per night in Tokyo?") == ["Tokyo"]
    # A word the adjective merely starts with is no form of it.
    assert unmentioned_names(searcher, "Did I go to Haw?") == ["Haw"]


def test_a_long_name_misspelt_by_one_edit_is_mentioned_a_short_or_far_one_is_not() -> None:
    g = MemoryGraph(ToyEmbedder().encode, space="names", now=T0)
    g.add_episode("e1", "Amy Johnson was a British aviator; she lived in Seattle.", source="doc")
    searcher = MemorySearcher(g)
    question = "What was the profession of Amy Johnson, featured in the Brittish biopic?"
    assert unmentioned_names(searcher, question, typo_from=8) == []
    assert unmentioned_names(searcher, question) == ["Brittish"]  # exact words only
    # Under eight letters a typo is not assumed ("Settle" is no mention of Seattle, nor "Seatle" here).
    assert unmentioned_names(searcher, "When did I fly to Seatle?", typo_from=8) == ["Seatle"]
    # Two edits away is another word.
    assert unmentioned_names(searcher, "Was the Brrittissh one famous?", typo_from=8) == ["Brrittissh"]
    assert searcher.unmentioned(["brittish", "sacramento"], typos=True) == ["sacramento"]


def test_as_of_is_the_world_time_the_facts_and_episodes_speak_of(chat: MemoryGraph) -> None:
    """as_of reads the facts' own times (valid_from, occurred_at), not when memory recorded them (known_at): p3 says
    Alice moved on day 3, recorded on day 10."""
    query = vector("Alice moved to Lisbon")
    assert "p3" in [h.id for h in MemorySearcher(chat, as_of=day(5)).dense("propositions", query, 5)]
    assert "p3" not in [h.id for h in MemorySearcher(chat, known_at=day(5)).dense("propositions", query, 5)]
    assert "p3" not in [h.id for h in MemorySearcher(chat, as_of=day(2)).dense("propositions", query, 5)]
    assert "e3" not in {h.id for h in MemorySearcher(chat, as_of=day(5)).dense("episodes", query, 5)}  # told day 10
