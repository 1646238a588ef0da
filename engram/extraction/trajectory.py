"""Procedural knowledge from agent trajectories.

A trajectory is cut into segments where the embeddings of consecutive subgoals fall below a similarity
threshold; each segment becomes one Intent (what was being attempted) and one Prescription (the actions
that did it), with a 1-10 return score from the segment's rewards.
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
