"""Associate's pipeline over an in-memory memory: what it surfaces for a remark, why, and what it leaves out."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest

from graph.recall.associate.engine import Associator
from graph.recall.associate.models import AssociateRequest, AssociateResult, PathKind
from graph.recall.engine import RecallEngine
from tests.support.memory_searcher import MemoryGraph
from tests.unit.graph.recall.recall_support import embed, new_engine, recall_config

SPACE = "toy"
CLOCK = timezone(timedelta(hours=8))  # the user's
WEDNESDAY = datetime(2024, 3, 6, 19, 50, tzinfo=CLOCK)
FRIDAY = datetime(2024, 3, 8, 20, 0, tzinfo=CLOCK)
NOW = datetime(2024, 4, 3, 21, 0, tzinfo=CLOCK)  # a Wednesday evening, four weeks on


def cooking_memory() -> MemoryGraph:
    g = MemoryGraph(embed, space=SPACE, now=WEDNESDAY)
    g.add_episode(
        "e1",
        "Every Wednesday after work I run a clear-the-fridge challenge and cook a fusion dish from the scraps",
        source="s1",
        speaker="User",
        occurred_at=WEDNESDAY,
    )
    g.add_episode(
        "e2", "I write every improvised recipe into my recipe notes", source="s1", speaker="User",
        occurred_at=WEDNESDAY + timedelta(minutes=5),
    )  # fmt: skip
    g.add_proposition(
        "p_fridge",
        "User runs a clear-the-fridge challenge every Wednesday after work",
        proven_by=["e1"],
        concepts=["clear the fridge", "wednesday evening", "leftover"],
    )
    g.add_proposition(
        "p_fusion", "User cooks a fusion dish from leftovers", proven_by=["e1"], concepts=["fusion dish", "leftover"]
    )
    g.add_proposition(
        "p_notes", "User writes improvised recipes into recipe notes", proven_by=["e2"], concepts=["recipe note"]
    )
    g.now = FRIDAY
    g.add_episode(
        "e3",
        "When client revisions leave me stressed I cook spicy noodles",
        source="s2",
        speaker="User",
        occurred_at=FRIDAY,
    )
    g.add_proposition(
        "p_noodles",
        "User cooks spicy noodles when client revisions leave User stressed",
        proven_by=["e3"],
        concepts=["spicy noodle", "client revision"],
    )
    g.add_episode("e4", "My favourite knife is a Japanese santoku", source="s2", speaker="User", occurred_at=FRIDAY)
    g.add_proposition("p_knife_old", "User's favourite knife is a cleaver", proven_by=["e4"], concepts=["knife"])
    g.add_proposition("p_knife", "User's favourite knife is a Japanese santoku", proven_by=["e4"], concepts=["knife"])
    g.supersede("p_knife", "p_knife_old", reason="updated")
    g.refresh_associations()
    g.associate("recipe note", "fusion dish", 2.0)  # told together in later sessions
    return g


@pytest.fixture()
def associator() -> Iterator[Associator]:
    engine: RecallEngine = new_engine(cooking_memory(), recall_config())
    yield Associator(engine)
    engine.close()


def associate(associator: Associator, utterance: str) -> AssociateResult:
    return associator.associate(AssociateRequest(space=SPACE, utterance=utterance, now=NOW))


def test_a_remark_on_the_same_weekday_evening_surfaces_the_habit_with_the_time_path(associator: Associator) -> None:
    result = associate(associator, "It's Wednesday night again, and I'm wondering what's left in the fridge.")
    ids = [a.item.id for a in result.associations]
    assert "p_fridge" in ids[:2]
    fridge = next(a for a in result.associations if a.item.id == "p_fridge")
    assert PathKind.TIME in [p.kind for p in fridge.why]
    assert any(p.detail == "Wednesday night" for p in fridge.why)
    assert result.reason is None
    assert "recurring" in [step.step for step in result.trace]


def test_a_concept_the_remark_mentions_is_the_path(associator: Associator) -> None:
    result = associate(associator, "I'm thinking about my recipe notes")
    notes = next(a for a in result.associations if a.item.id == "p_notes")
    assert notes.why[0].kind is PathKind.CONCEPT
    assert notes.why[0].concepts == ["recipe note"]


def test_two_hops_over_associations_reach_what_neither_remark_nor_neighbour_names(associator: Associator) -> None:
    # recipe note -ASSOCIATED- fusion dish -ASSOCIATED- leftover: the fridge challenge mentions leftovers, not notes.
    result = associate(associator, "I'm thinking about my recipe notes")
    chains = [p.concepts for a in result.associations for p in a.why if p.kind is PathKind.TWO_HOPS]
    assert ["recipe note", "fusion dish", "leftover"] in chains
    assert "two hops" in [step.step for step in result.trace]


def test_a_feeling_reaches_what_the_user_does_about_it(associator: Associator) -> None:
    result = associate(associator, "Ugh, I'm so irritated")
    noodles = next(a for a in result.associations if a.item.id == "p_noodles")
    assert PathKind.EMOTION in [p.kind for p in noodles.why]


def test_superseded_knowledge_never_surfaces(associator: Associator) -> None:
    result = associate(associator, "I should sharpen my favourite knife")
    ids = [a.item.id for a in result.associations]
    assert "p_knife" in ids
    assert "p_knife_old" not in ids


def test_what_the_remark_states_is_not_surfaced_back(associator: Associator) -> None:
    result = associate(associator, "User cooks spicy noodles when client revisions leave User stressed")
    assert "p_noodles" not in [a.item.id for a in result.associations]
    stated = next(step for step in result.trace if step.step == "not stated")
    assert "p_noodles" in stated.detail["left_out"]


def test_one_memory_per_utterance(associator: Associator) -> None:
    result = associate(associator, "Wednesday night again: time for the fridge challenge and a fusion dish")
    told = [a.item.provenance[0].episode_id for a in result.associations]
    assert len(told) == len(set(told))


def test_an_unrelated_remark_surfaces_nothing_and_says_why(associator: Associator) -> None:
    result = associate(associator, "Quantum chromodynamics describes gluons binding quarks")
    assert result.associations == []
    assert result.reason is not None and "nothing in memory bears on this utterance" in result.reason


def test_an_empty_utterance_is_answered_not_run(associator: Associator) -> None:
    result = associate(associator, "   ")
    assert result.associations == [] and result.reason == "the utterance is empty" and result.trace == []


@pytest.fixture()
def sitting() -> Iterator[Associator]:
    """Associate with the same-sitting step on (it is off by default: docs/tuning.md `associate.sitting_k`)."""
    config = recall_config()
    engine: RecallEngine = new_engine(
        cooking_memory(), config.model_copy(update={"associate": config.associate.model_copy(update={"sitting_k": 20})})
    )
    yield Associator(engine)
    engine.close()


def test_the_same_sitting_is_off_by_default(associator: Associator) -> None:
    result = associate(associator, "The fridge is full of leftover scraps again, time for something improvised")
    assert "same sitting" not in [step.step for step in result.trace]
    assert all(PathKind.HABIT not in [p.kind for p in a.why] for a in result.associations)


def test_associate_ranks_by_its_own_value_weights(associator: Associator) -> None:
    recall_weights = recall_config().scoring.value
    assert associator.config.scoring.value == recall_config().associate.value != recall_weights
    result = associate(associator, "I'm thinking about my recipe notes")
    # Relevance alone: the best surfaced memory scores what its fused rank gives, nothing else.
    best = result.associations[0].item
    assert best.score == pytest.approx(
        associator.config.scoring.value.relevance * best.components["relevance"], abs=1e-3
    )


def _fused_with(associate_k: int) -> tuple[Associator, list[float]]:
    """The relevances associate gives with its fusion constant `associate_k` (recall's stays 20)."""
    base = recall_config(rrf_k=20)
    config = base.model_copy(update={"associate": base.associate.model_copy(update={"rrf_k": associate_k})})
    engine = new_engine(cooking_memory(), config)
    try:
        associator = Associator(engine)
        remark = "my knife and my fridge and my recipe notes"  # three memories, each first in some list
        result = associator.associate(AssociateRequest(space=SPACE, utterance=remark, now=NOW))
    finally:
        engine.close()
    assert engine.config.seed.rrf_k == 20  # recall's own fusion is untouched
    return associator, [found.item.components["relevance"] for found in result.associations]


def test_associate_fuses_with_its_own_constant() -> None:
    steep, steep_relevances = _fused_with(1)
    flat, flat_relevances = _fused_with(1000)
    assert (steep.config.seed.rrf_k, flat.config.seed.rrf_k) == (1, 1000)
    # Relevance is the fused score over the best one's: a larger constant trusts the top ranks less, so the memories
    # below the first come closer to it.
    assert len(steep_relevances) > 1 and len(flat_relevances) > 1
    assert flat_relevances[1] > steep_relevances[1]


def test_a_habits_other_parts_come_from_the_same_sitting(sitting: Associator) -> None:
    # The notebook was mentioned five minutes after the challenge, in another turn: a part of the same habit.
    result = associate(sitting, "The fridge is full of leftover scraps again, time for something improvised")
    assert result.associations[0].item.id == "p_fridge"
    notes = next(a for a in result.associations if a.item.id == "p_notes")
    assert PathKind.HABIT in [p.kind for p in notes.why]
    assert "same sitting" in [step.step for step in result.trace]


def test_an_unrelated_remark_anchors_no_sitting(sitting: Associator) -> None:
    result = associate(sitting, "Quantum chromodynamics describes gluons binding quarks")
    step = next(step for step in result.trace if step.step == "same sitting")
    assert step.detail["anchors"] == 0


def _speakers_memory() -> MemoryGraph:
    """Mia's own words and an assistant's reply on the same topic, the reply closer to the remarks below in wording."""
    g = MemoryGraph(embed, space=SPACE, now=FRIDAY)
    g.add_episode(
        "reply",
        "Homemade dumplings are a lovely way to unwind after a long week of client work",
        source="s3",
        speaker="Assistant",
        occurred_at=FRIDAY,
    )
    g.add_episode(
        "own",
        "On Fridays I fold homemade dumplings to unwind",
        source="s3",
        speaker="Mia",
        occurred_at=FRIDAY + timedelta(minutes=1),
    )
    g.add_proposition("p_reply", "Homemade dumplings are a lovely way to unwind", proven_by=["reply"])
    g.add_proposition("p_own", "Mia folds homemade dumplings on Fridays to unwind", proven_by=["own"])
    return g


@pytest.mark.parametrize(
    "remark",
    [
        "After a long week of client work I want to unwind with homemade dumplings",
        # No "I" or "my": the remark is still its speaker's, and so is what it brings up.
        "After a long week of client work, homemade dumplings to unwind",
        "After a long week of client work you deserve homemade dumplings to unwind",
    ],
)
def test_what_the_speaker_said_goes_above_a_reply_on_the_same_topic(remark: str) -> None:
    engine = new_engine(_speakers_memory(), recall_config())
    try:
        associator = Associator(engine)
        anyone = associator.associate(AssociateRequest(space=SPACE, utterance=remark, now=NOW))
        mia = associator.associate(AssociateRequest(space=SPACE, utterance=remark, now=NOW, speaker="Mia"))
    finally:
        engine.close()
    assert [a.item.id for a in anyone.associations][:1] == ["p_reply"]  # closer in wording
    assert [a.item.id for a in mia.associations][:1] == ["p_own"]
    participants = next(step for step in mia.trace if step.step == "participants")
    assert participants.detail["meant"] == ["Mia"]
    assert "participants" not in [step.step for step in anyone.trace]


@pytest.mark.parametrize("speaker", ["", "x" * 201])
def test_an_empty_or_over_long_speaker_is_refused_naming_the_field(speaker: str) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as refused:
        AssociateRequest(space="s", utterance="It's Wednesday again", speaker=speaker)
    assert [error["loc"] for error in refused.value.errors()] == [("speaker",)]
