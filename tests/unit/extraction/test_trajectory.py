from engram.embedding import get_embedder
from engram.extraction.trajectory import Segment, StepView, distinct_words, segment_trajectory


def test_segments_follow_subgoal_changes() -> None:
    steps = [
        StepView("e0", "open the fridge", "find ingredients for pasta", None),
        StepView("e1", "take tomatoes", "", 0.5),
        StepView("e2", "book a flight to Paris", "plan the holiday trip", None),
        StepView("e3", "reserve a hotel", "plan the holiday trip", 1.0),
    ]
    vectors = get_embedder().encode([s.subgoal or "cook dinner" for s in steps])
    segments = segment_trajectory("cook dinner", steps, vectors, threshold=0.6)
    assert [s.intent for s in segments] == ["find ingredients for pasta", "plan the holiday trip"]
    assert [[v.episode_id for v in s.steps] for s in segments] == [["e0", "e1"], ["e2", "e3"]]
    assert segments[1].prescription_text() == "To plan the holiday trip: 1. book a flight to Paris; 2. reserve a hotel"


def test_return_score_is_neutral_without_rewards_and_rises_with_them() -> None:
    neutral = Segment("x", [StepView("e", "a", "", None)])
    good = Segment("x", [StepView("e", "a", "", 2.0)])
    bad = Segment("x", [StepView("e", "a", "", -2.0)])
    assert neutral.return_score == 5.5
    assert 9.0 < good.return_score <= 10.0
    assert 1.0 <= bad.return_score < 2.0


def test_a_procedures_index_terms_are_its_intent_then_the_words_of_its_actions_and_observations_once() -> None:
    actions = ["go to cabinet 1", "open cabinet 1", "go to cabinet 2", "take mug 1 from cabinet 2"]
    segment = Segment("put a mug in shelf.", [StepView(f"e{i}", a, "", None) for i, a in enumerate(actions)])
    assert segment.prescription_terms() == "put a mug in shelf. go to cabinet 1 open 2 take mug from"
    observed = Segment(
        "put a clean mug in shelf.",
        [
            StepView("e0", "go to sinkbasin 1", "", None, "You pick up the mug 1 from the cabinet 1."),
            StepView("e1", "clean mug 1 with sinkbasin 1", "", None, "On the sinkbasin 1, you see nothing."),
        ],
    )
    terms = observed.prescription_terms().removeprefix("put a clean mug in shelf. ").split()
    assert len(terms) == len(set(terms))
    assert {"clean", "sinkbasin", "pick", "nothing"} <= set(terms)
    assert distinct_words("Go go, GO!") == "go"
