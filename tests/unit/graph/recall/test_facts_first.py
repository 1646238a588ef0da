"""Facts first (graph/recall/steps/facts.py) and the question's reading (graph/recall/reading.py), over a small memory
of facts searched in memory (tests/support/memory_searcher.py; the toy embedder: a question meets a fact by its words
or by the slot its frames name)."""

from __future__ import annotations

from datetime import UTC, datetime

from graph.recall.reading import Form
from tests.support.memory_searcher import MemoryGraph
from tests.unit.graph.recall.recall_support import MakeEngine, recall_config, request

TOLD = datetime(2026, 9, 1, 10, tzinfo=UTC)
MOVED = datetime(2026, 11, 20, 10, tzinfo=UTC)


def lena() -> MemoryGraph:
    """Lena lived in Porto and worked at a bakery; she then moved to Graz (a change naming Porto: superseded)."""
    g = MemoryGraph()
    g.add_episode("e1", "I live in Porto and work at a bakery near the station.", speaker="Lena", occurred_at=TOLD)
    g.add_episode("e2", "Big news: I moved from Porto to Graz last month.", speaker="Lena", occurred_at=MOVED)
    g.add_episode("e3", "The weather in Graz is lovely.", speaker="Lena", occurred_at=MOVED)
    fact = {"subject": "Lena", "event": False}
    g.add_proposition("porto", "Lena lives in Porto.", proven_by=["e1"], valid_from=TOLD,
                      fact={**fact, "slot": "home", "frame": "live in :thing", "value": "Porto"})  # fmt: skip
    g.add_proposition("bakery", "Lena works at a bakery near the station.", proven_by=["e1"], valid_from=TOLD,
                      fact={**fact, "slot": "employer", "frame": "work at :thing", "value": "bakery"})  # fmt: skip
    g.add_proposition("graz", "Lena moved from Porto to Graz.", proven_by=["e2"], valid_from=MOVED,
                      fact={**fact, "slot": "home", "frame": "move to :thing", "value": "Graz"})  # fmt: skip
    g.add_proposition("weather", "The weather in Graz is lovely.", proven_by=["e3"], valid_from=MOVED)
    g.supersede("graz", "porto", reason="changed", carry=False)
    return g


def test_a_state_question_gets_the_slots_current_fact_then_its_earlier_version(make_engine: MakeEngine) -> None:
    result = make_engine(graph=lena()).recall(request("Where does Lena live?", limit=5))
    texts = [item.text for item in result.items]
    assert texts[:2] == ["Lena moved from Porto to Graz.", "Lena lives in Porto."]
    assert result.items[1].superseded_by == "graz"
    (step,) = [s for s in result.trace if s.step == "facts first"]
    assert step.detail["slot"] == "home" and step.detail["first"] == ["graz", "porto"]


def test_the_asker_is_the_subject_of_a_first_person_question(make_engine: MakeEngine) -> None:
    result = make_engine(graph=lena()).recall(request("Where do I live?", asker="Lena", limit=5))
    assert result.items[0].text == "Lena moved from Porto to Graz."


def test_nothing_fills_an_attribute_memory_never_mentions(make_engine: MakeEngine) -> None:
    engine = make_engine(graph=lena())
    result = engine.recall(request("What is Lena's blood type?"))
    assert result.items == [] and result.reason == "nothing known about Lena's blood type"
    # minRelevance is the caller's override: the ranking as it is
    assert engine.recall(request("What is Lena's blood type?", min_relevance=0.0)).items


def test_an_attribute_memory_mentions_is_left_to_the_ranking(make_engine: MakeEngine) -> None:
    result = make_engine(graph=lena()).recall(request("What is the weather like for Lena?"))
    assert result.reason is None and result.items


def test_without_facts_of_the_subject_or_off_nothing_changes(make_engine: MakeEngine) -> None:
    off = make_engine(recall_config(fact_answers=False), graph=lena()).recall(request("What is Lena's blood type?"))
    assert off.items and not [s for s in off.trace if s.step == "facts first"]
    unknown = make_engine(graph=lena()).recall(request("Where does Bruno live?"))
    assert unknown.reason != "nothing known about Bruno's live"


def test_the_reading_says_what_it_could_not_resolve(make_engine: MakeEngine) -> None:
    engine = make_engine(graph=lena())
    run = engine.run(request("Where did I hike last week?"))  # no asker, no now: a recall like any other
    assert run.reading.subject is None and run.reading.form is Form.EVENT
    assert "a first person, without an asker" in run.reading.unresolved
    assert "a time, without the moment it is relative to (now)" in run.reading.unresolved
    before_all = engine.recall(request("Where does Lena live?", now=datetime(1990, 1, 1, tzinfo=UTC)))
    assert before_all.items  # a `now` before every memory is a recall like any other


def test_the_reading_of_a_question_table(make_engine: MakeEngine) -> None:
    engine = make_engine(graph=lena())
    table = [  # (question, asker, subject, form, a frame it must have)
        ("Where does Maribel live?", None, "Maribel", Form.STATE_NOW, "live in :thing"),
        ("Who is my boss?", "Lena", "Lena", Form.STATE_NOW, "boss"),
        ("Which gym does Maribel go to?", None, "Maribel", Form.STATE_NOW, "gym"),
        ("Who do I rent from?", "Lena", "Lena", Form.STATE_NOW, "rent from :thing"),
        ("What is Tobias's job title?", None, "Tobias", Form.STATE_NOW, "job title"),
        ("How many concerts did I go to?", "Lena", "Lena", Form.COUNT, ""),
        ("How do I reset the router?", "Lena", "Lena", Form.HOW_TO, ""),
    ]
    for question, asker, subject, form, frame in table:
        reading = engine.run(request(question, asker=asker)).reading
        assert (reading.subject, reading.form) == (subject, form), question
        assert not frame or frame in reading.frames, (question, reading.frames)
