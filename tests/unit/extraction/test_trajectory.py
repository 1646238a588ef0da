import numpy as np
from numpy.typing import NDArray

from engram.embedding import get_embedder
from engram.extraction.trajectory import Segment, StepView, distinct_words, segment_trajectory, whole_procedure


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


BILLING = [
    StepView("e0", "run the unit tests", "build and test the release", 0.2, "repository checked out"),
    StepView("e1", "build the docker image", "", None, "all tests pass"),
    StepView("e2", "apply the staging manifests", "roll out on the staging cluster", None, "image pushed"),
    StepView("e3", "check the health endpoint", "", 1.0, "pods running"),
]
TASK = "deploy the billing service to staging"


def _vectors(task: str, steps: list[StepView]) -> NDArray[np.float32]:
    return get_embedder().encode([s.subgoal or task for s in steps])


def test_a_trajectory_is_one_procedure_for_its_task_with_its_subgoals_as_ordered_parts() -> None:
    procedure = whole_procedure(TASK, BILLING, _vectors(TASK, BILLING), threshold=0.75)
    assert [s.episode_id for s in procedure.steps] == ["e0", "e1", "e2", "e3"]
    assert procedure.part_intents == ["build and test the release", "roll out on the staging cluster"]
    assert procedure.part_ends == [2, 4]
    assert procedure.prescription_text() == (
        "To deploy the billing service to staging: build and test the release: 1. run the unit tests; "
        "2. build the docker image. Then roll out on the staging cluster: 3. apply the staging manifests; "
        "4. check the health endpoint"
    )
    assert procedure.return_score == Segment(TASK, BILLING).return_score  # the rewards of every step
    terms = procedure.prescription_terms()
    assert terms.startswith(f"{TASK} build and test the release roll out on staging cluster run unit")
    words = terms.removeprefix(f"{TASK} ").split()
    assert len(words) == len(set(words))


def test_steps_before_the_first_subgoal_pursue_the_task_and_have_no_heading() -> None:
    steps = [StepView("e0", "open the terminal", "", None), *BILLING[2:]]
    procedure = whole_procedure(TASK, steps, _vectors(TASK, steps), threshold=0.75)
    assert procedure.part_intents == [TASK, "roll out on the staging cluster"]
    assert procedure.part_ends == [1, 3]
    assert procedure.prescription_text() == (
        "To deploy the billing service to staging: 1. open the terminal. Then roll out on the staging cluster: "
        "2. apply the staging manifests; 3. check the health endpoint"
    )


def test_without_subgoals_the_procedure_reads_and_indexes_as_its_one_segment() -> None:
    """A trajectory without subgoals (the ALFWorld benchmark's) is written as before: one part, the task."""
    steps = [StepView(s.episode_id, s.action, "", s.reward, s.observation) for s in BILLING]
    procedure = whole_procedure(TASK, steps, _vectors(TASK, steps), threshold=0.75)
    segment = Segment(TASK, steps)
    assert procedure.part_intents == [TASK] and procedure.part_ends == [4]
    assert procedure.prescription_text() == segment.prescription_text()
    assert procedure.prescription_terms() == segment.prescription_terms()
