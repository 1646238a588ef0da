"""How well a procedure's goal fits the task asked: the words of one turned into the other's.

A procedure recorded for the same kind of task with other things in it transfers ("put a mug in shelf" answers "put a
cup in drawer"); one recorded for a goal with a word more or less ("put two mugs in shelf", "put a cool mug in shelf")
is another kind of task, whatever objects they share. So, over content words, a word of one goal standing in for a
word of the other costs less than a word that only one of them has, and the prescriptions of a recall are scaled
down by how much farther their goal is from the query than the closest one's (the closest keeps its score, so
procedures keep their standing against facts).

The defaults' measurements: docs/tuning.md.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Protocol

from engram.extraction.keyphrases import FUNCTION_WORDS

_WORD = re.compile(r"[a-z0-9]+")


class Scored(Protocol):
    id: str
    score: float
    components: dict[str, float]


def content_words(text: str) -> Counter[str]:
    return Counter(w for w in _WORD.findall(text.lower()) if w not in FUNCTION_WORDS)


def goal_distance(query: str, goal: str, substitution: float) -> float:
    """A word of one goal standing in for a word of the other costs `substitution`; a word only one has costs 1."""
    return _distance(content_words(query), content_words(goal), substitution)


def coverage(query: str, goal: str) -> float:
    """The share of the query's content words the goal has (1: every word of the task asked is in the goal)."""
    return _coverage(content_words(query), content_words(goal))


def _distance(asked: Counter[str], recorded: Counter[str], substitution: float) -> float:
    extra, missing = sum((recorded - asked).values()), sum((asked - recorded).values())
    substituted = min(extra, missing)
    return substitution * substituted + (extra + missing - 2 * substituted)


def _coverage(asked: Counter[str], recorded: Counter[str]) -> float:
    if not asked:
        return 0.0
    return sum((asked & recorded).values()) / sum(asked.values())


def fit_goals(
    items: Sequence[Scored], goals: Mapping[str, str | None], query: str, substitution: float, strength: float
) -> None:
    """Scales the scores of the items with a goal (prescriptions, by id) in place, by exp(-strength x alike x (its
    distance - the closest's)); records `goal_fit` beside them."""
    words = {item.id: content_words(goal) for item in items if (goal := goals.get(item.id))}
    if not words:
        return
    asked = content_words(query)
    distances = {item_id: _distance(asked, recorded, substitution) for item_id, recorded in words.items()}
    closest = min(distances.values())
    # Words are compared only as far as the query is worded like the goals: a paraphrase ("move the phone to the
    # shelf") shares few words with any goal, and then a word more or less says little.
    alike = max(_coverage(asked, recorded) for recorded in words.values()) ** 2
    for item in items:
        if item.id in distances:
            fit = math.exp(-strength * alike * (distances[item.id] - closest))
            item.components["goal_fit"] = round(fit, 6)
            item.score = round(item.score * fit, 6)
