"""Procedural knowledge from agent trajectories.

A trajectory is one procedure (docs/procedures.md): its task is the Intent, and one Prescription holds all its
actions in order, with a 1-10 return score from its rewards. The steps are cut into segments where the embeddings of
consecutive subgoals fall below a similarity threshold; the segments are the prescription's ordered parts (the
subgoal each pursued and where it ends), not procedures of their own: a subgoal is a stage of the task, and as a
procedure apart it competed with the whole and lost the order of the stages.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from engram.extraction.keyphrases import TERM


def distinct_words(text: str) -> str:
    """The words of `text`, each once, in the order they first appear."""
    return " ".join(dict.fromkeys(word.lower() for word in TERM.findall(text)))


@dataclass(frozen=True)
class StepView:
    episode_id: str
    action: str
    subgoal: str
    reward: float | None
    observation: str = ""  # what the agent saw before acting


@dataclass(frozen=True)
class Segment:
    intent: str
    steps: list[StepView]

    @property
    def return_score(self) -> float:
        """Neutral 5.5 without rewards; tanh-squashed total reward mapped onto 1..10."""
        rewards = [s.reward for s in self.steps if s.reward is not None]
        if not rewards:
            return 5.5
        return round(5.5 + 4.5 * math.tanh(sum(rewards)), 3)

    def prescription_terms(self) -> str:
        """What a prescription's full-text search reads: its intent, then the words of its actions and of what its
        steps observed, each once.

        A procedure's steps name the objects and places they handle again and again ("go to cabinet 1", "open
        cabinet 1", ... "go to cabinet 9"), so by term frequency it matched a query on the thing it searched longest,
        not on what it was for: each word of the steps counts once, and a word both in the intent and in the steps
        twice. What the steps saw is part of what the procedure is ("You clean the potato 1 using the sinkbasin 1",
        "You turn on the desklamp 1"): a task is named by the states it goes through as much as by its actions.
        The intent's words count twice on purpose: counted once, "What's the best way to cook the pasta?" found
        "gather ingredients for the pasta" before "cook the spaghetti" (whose actions confirm "cook"). The figures
        behind both choices are in docs/tuning.md."""
        steps = [*(s.action for s in self.steps), *(s.observation for s in self.steps)]
        return f"{self.intent} {distinct_words(' ; '.join(steps))}"

    def prescription_text(self) -> str:
        actions = "; ".join(f"{i}. {s.action}" for i, s in enumerate(self.steps, start=1))
        return f"To {self.intent}: {actions}"


def segment_trajectory(
    task: str, steps: Sequence[StepView], subgoal_vectors: NDArray[np.float32], threshold: float = 0.6
) -> list[Segment]:
    """Segments of consecutive steps pursuing the same subgoal (steps without one inherit the previous)."""
    if not steps:
        return []
    segments: list[Segment] = []
    current: list[StepView] = [steps[0]]
    intent = steps[0].subgoal or task
    previous_vector = subgoal_vectors[0]
    for step, vector in zip(steps[1:], subgoal_vectors[1:], strict=True):
        if step.subgoal and float(previous_vector @ vector) < threshold:
            segments.append(Segment(intent, current))
            current, intent = [], step.subgoal
        current.append(step)
        if step.subgoal:
            previous_vector = vector
    segments.append(Segment(intent, current))
    return segments


@dataclass(frozen=True)
class Procedure:
    """A whole trajectory: its task, and the segments of its steps as ordered parts."""

    task: str
    parts: list[Segment]

    @property
    def steps(self) -> list[StepView]:
        return [step for part in self.parts for step in part.steps]

    @property
    def return_score(self) -> float:
        return Segment(self.task, self.steps).return_score

    @property
    def part_intents(self) -> list[str]:
        return [part.intent for part in self.parts]

    @property
    def part_ends(self) -> list[int]:
        """Where each part ends in `steps` (exclusive): part i is steps[ends[i-1]:ends[i]]."""
        ends, end = [], 0
        for part in self.parts:
            end += len(part.steps)
            ends.append(end)
        return ends

    def _subgoals(self) -> list[str]:
        """The parts' own goals: those that say more than the task."""
        return [intent for intent in dict.fromkeys(self.part_intents) if intent != self.task]

    def prescription_terms(self) -> str:
        """The task, then the words of the subgoals, actions and observations, each once (Segment.prescription_terms
        says why): a subgoal names a stage of the procedure as its actions do. Without subgoals, a segment's terms."""
        steps = [*self._subgoals(), *(s.action for s in self.steps), *(s.observation for s in self.steps)]
        return f"{self.task} {distinct_words(' ; '.join(steps))}"

    def prescription_text(self) -> str:
        """The task, then each part's subgoal before its steps ("To <task>: <subgoal>: 1. a; 2. b. Then <subgoal>:
        3. c"), steps numbered through the whole; a part pursuing the task itself has no heading."""
        pieces, number = [], 1
        for index, part in enumerate(self.parts):
            actions = "; ".join(f"{number + i}. {s.action}" for i, s in enumerate(part.steps))
            number += len(part.steps)
            heading = "" if part.intent == self.task else f"{part.intent}: "
            pieces.append(("Then " if index else "") + heading + actions)
        return f"To {self.task}: " + ". ".join(pieces)


def whole_procedure(
    task: str, steps: Sequence[StepView], subgoal_vectors: NDArray[np.float32], threshold: float = 0.6
) -> Procedure:
    """The trajectory as one procedure for its task, its subgoal segments (segment_trajectory) as its parts."""
    return Procedure(task, segment_trajectory(task, steps, subgoal_vectors, threshold))
