"""Synthetic conversations in the ingest format (engram/formats/records.py), for bulk-load benchmarks.

Two friends talk over dated sessions; each turn says one to three things drawn from templates filled with people,
places, activities and objects, so the offline extractor finds statements, relative times and keyphrases as in
real chat (a greeting now and then yields nothing). Seeded: the same arguments give the same records. Invented
text only; no benchmark data.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

NAMES = (
    "Maya",
    "Leo",
    "Ana",
    "Omar",
    "Iris",
    "Tomas",
    "Priya",
    "Jonas",
    "Lena",
    "Kofi",
    "Sara",
    "Ravi",
    "Mei",
    "Hugo",
    "Nadia",
    "Ezra",
    "Lucia",
    "Felix",
    "Amara",
    "Noah",
)
PLACES = (
    "Lisbon",
    "Berlin",
    "Porto",
    "the community center",
    "the climbing gym",
    "the farmers market",
    "Kyoto",
    "the lake house",
    "the public library",
    "the dog park",
    "Vienna",
    "the night school",
    "Oslo",
    "the studio",
    "the harbour",
    "the old bakery",
    "Madrid",
    "the botanical garden",
    "the campus",
    "the hospital",
)
ACTIVITIES = (
    "a pottery class",
    "a half marathon",
    "a salsa workshop",
    "a photography course",
    "a chess club",
    "a choir",
    "a volunteer shift",
    "a coding bootcamp",
    "a book club",
    "a cooking class",
    "a yoga retreat",
    "a charity run",
    "a sailing lesson",
    "a painting group",
    "a support group",
    "a woodworking course",
    "a language exchange",
    "a hiking trip",
    "a guitar lesson",
    "a startup meetup",
)
OBJECTS = (
    "a blue bowl",
    "a glazed vase",
    "a vintage camera",
    "a wooden chair",
    "a new bike",
    "a sourdough loaf",
    "a handmade quilt",
    "a ceramic mug",
    "a leather journal",
    "a small telescope",
    "a herb garden",
    "a birdhouse",
    "a watercolor sketch",
    "a knitted scarf",
    "a used piano",
    "a kayak",
    "a bonsai tree",
    "a board game",
    "a pair of running shoes",
    "a record player",
)
TIMES = (
    "yesterday",
    "last week",
    "last Sunday",
    "two days ago",
    "last month",
    "this morning",
    "last Saturday",
    "three weeks ago",
    "last year",
    "next month",
)
STATEMENTS = (
    "I started {activity} at {place} {time}.",
    "I made {object} for my friend {name}.",
    "My sister {name} is moving to {place} {time}.",
    "We visited {place} {time} and loved it.",
    "I finished {activity} {time}, it was hard but worth it.",
    "{name} gave me {object} as a birthday present.",
    "I have been going to {activity} every week since {time}.",
    "I bought {object} at {place}.",
    "My cousin {name} works at {place} now.",
    "I signed up for {activity} with {name}.",
    "The trip to {place} {time} was the best part of my year.",
    "I lost {object} somewhere near {place} {time}.",
)
QUESTIONS = ("How was {activity}?", "Did you go to {place}?", "What did {name} think of {object}?")
FILLERS = ("Hi!", "That sounds great!", "Wow, nice.", "Good to hear.", "Haha, yes.")


class ConversationGenerator:
    """Records of LoCoMo-like shape: `turns_per_session` turns per session, alternating two speakers."""

    def __init__(self, seed: int = 11, sessions: int = 4, turns_per_session: int = 20) -> None:
        self.rng = np.random.default_rng(seed)
        self.sessions = sessions
        self.turns_per_session = turns_per_session

    def _pick(self, options: tuple[str, ...]) -> str:
        return options[int(self.rng.integers(len(options)))]

    def _sentence(self) -> str:
        roll = self.rng.random()
        template = self._pick(FILLERS) if roll < 0.08 else self._pick(QUESTIONS if roll < 0.2 else STATEMENTS)
        return template.format(activity=self._pick(ACTIVITIES), place=self._pick(PLACES), object=self._pick(OBJECTS),
                               name=self._pick(NAMES), time=self._pick(TIMES))  # fmt: skip

    def conversation(self, index: int) -> dict[str, Any]:
        first, second = (str(n) for n in self.rng.choice(NAMES, size=2, replace=False))
        start = datetime(2023, 1, 1, 10, tzinfo=UTC) + timedelta(days=int(self.rng.integers(0, 700)))
        sessions = []
        for s in range(self.sessions):
            turns = [
                {"speaker": (first, second)[t % 2], "id": f"D{s + 1}:{t + 1}",
                 "text": " ".join(self._sentence() for _ in range(int(self.rng.integers(1, 4))))}
                for t in range(self.turns_per_session)
            ]  # fmt: skip
            started_at = start + timedelta(days=9 * s, hours=int(self.rng.integers(0, 10)))
            sessions.append({"id": f"session_{s + 1}", "started_at": started_at.isoformat(), "turns": turns})
        return {"type": "conversation", "id": f"synthetic-{index}", "title": f"{first} and {second}",
                "sessions": sessions}  # fmt: skip

    def conversations(self, count: int) -> list[dict[str, Any]]:
        return [self.conversation(index) for index in range(count)]
