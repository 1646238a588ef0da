"""The feeling an utterance voices, by a small affect lexicon grouped into families, so that "I'm so frustrated" finds
what the user said they do when stressed or annoyed: an utterance's emotion is a path to the memories of the same
family of emotion, whatever word each used."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Families of emotion words (base forms and the common inflections a chat uses). A word belongs to one family.
FAMILIES: dict[str, tuple[str, ...]] = {
    "stress": (
        "stress", "stressed", "stressful", "frustrated", "frustrating", "frustration", "annoyed", "annoying",
        "irritated", "irritating", "overwhelmed", "overwhelming", "pressure", "tense", "exhausted", "burnout",
        "drained", "anxious", "anxiety", "nervous", "worried", "angry", "furious", "upset"
    ),
    "sadness": ("sad", "lonely", "depressed", "homesick", "gloomy", "heartbroken", "disappointed", "discouraged"),
    "joy": (
        "happy", "excited", "exciting", "thrilled", "proud", "accomplished", "accomplishment", "satisfied",
        "satisfying", "delighted", "joy", "glad", "elated", "cheerful",
    ),
    "calm": ("calm", "relaxed", "relaxing", "peaceful", "healing", "soothing", "cozy", "comforting"),
    "tired": ("tired", "sleepy", "fatigued", "fatigue", "weary", "sore", "lazy", "unmotivated"),
    "boredom": ("bored", "boring", "restless", "uninspired"),
    "nostalgia": ("nostalgic", "nostalgia", "reminisce", "reminiscing"),
}  # fmt: skip
_FAMILY_OF = {word: family for family, words in FAMILIES.items() for word in words}
_WORD = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class Feeling:
    family: str
    said: tuple[str, ...]  # the utterance's words of the family

    @property
    def words(self) -> tuple[str, ...]:
        return FAMILIES[self.family]


def feelings(utterance: str) -> list[Feeling]:
    """The families of emotion the utterance's words belong to, in the order first voiced."""
    found: dict[str, list[str]] = {}
    for word in _WORD.findall(utterance.lower()):
        family = _FAMILY_OF.get(word)
        if family is not None and word not in found.setdefault(family, []):
            found[family].append(word)
    return [Feeling(family, tuple(words)) for family, words in found.items()]
