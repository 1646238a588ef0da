"""ProactiveMemBench development domains (../shared/data/proactive): a domain's sessions as one conversation record
for the ingest pipeline and as flat turns for the baselines; its trigger utterances with the turns each candidate
concept is about.

Candidate-to-turn matching (the dataset's candidate strings match a turn annotation verbatim only ~60-80% of the
time): names are compared normalised (lower case, runs of letters and digits joined by one space). A candidate
maps to the annotation of the same normalised name; failing that, to every annotation name sharing the highest
share of content words with it (Jaccard over words, stop words out) when that share is at least `MIN_JACCARD`. The
turns about an annotation name are those whose `mentioned_entities` name it, plus those planting a memory unit whose
`involved_entities` name it. A question is scored on its mapped candidates; one with none mapped is left out.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

MIN_JACCARD = 0.5
_STOP = frozenset(["the", "a", "an", "of", "and", "to", "in", "on", "for", "with", "my", "her", "his", "its", "s"])
KINDS = ("temporal", "entity", "emotional", "behavioural", "multi-hop")
SPEAKERS = {"user": "User", "assistant": "Assistant"}


def normalise(name: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", name.lower()))


def _words(name: str) -> set[str]:
    return {w for w in normalise(name).split() if w not in _STOP}


def trigger_kind(label: str) -> str:
    """The five kinds from the dataset's free-form labels ("Time-based memory association", "Multi-Hop ...")."""
    low = label.lower()
    for prefix, kind in (
        ("time", "temporal"),
        ("entity", "entity"),
        ("emotion", "emotional"),
        ("behavio", "behavioural"),
    ):
        if low.startswith(prefix):
            return kind
    if low.startswith("multi"):
        return "multi-hop"
    raise ValueError(f"unknown trigger type {label!r}")


@dataclass(frozen=True)
class Turn:
    id: str  # "S<session>:T<turn>", the episode's external id
    session: int
    speaker: str
    text: str
    at: datetime


@dataclass(frozen=True)
class Trigger:
    id: str
    kind: str
    utterance: str
    candidates: tuple[str, ...]
    about: tuple[frozenset[str], ...]  # per mapped candidate, the turns about it


@dataclass(frozen=True)
class Domain:
    name: str
    turns: tuple[Turn, ...]
    triggers: tuple[Trigger, ...]
    candidates: int  # candidate concepts over all triggers
    mapped: int  # of them, mapped to at least one turn
    left_out: tuple[str, ...]  # triggers with no candidate mapped

    @property
    def now(self) -> datetime:
        """An hour after the last turn, on its clock (its zone is the user's)."""
        return self.turns[-1].at + timedelta(hours=1)

    def record(self) -> dict[str, Any]:
        sessions: dict[int, list[Turn]] = defaultdict(list)
        for turn in self.turns:
            sessions[turn.session].append(turn)
        return {
            "type": "conversation",
            "id": f"proactive-{self.name}",
            "title": f"{self.name} chats",
            "sessions": [
                {
                    "id": f"S{number}",
                    "started_at": turns[0].at.isoformat(),
                    "turns": [
                        {"speaker": t.speaker, "id": t.id, "text": t.text, "timestamp": t.at.isoformat()} for t in turns
                    ],
                }
                for number, turns in sessions.items()
            ],
        }


def _time(text: str) -> datetime:
    """An ISO time; one without a zone is the user's wall clock, taken as UTC (as the ingest format does)."""
    at = datetime.fromisoformat(text)
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def match(candidate: str, names: set[str]) -> list[str]:
    """The annotation names (normalised) a candidate maps to (the rule in the module's docstring)."""
    exact = normalise(candidate)
    if exact in names:
        return [exact]
    words = _words(candidate)
    if not words:
        return []
    shares = {name: len(words & _words(name)) / len(words | _words(name)) for name in names}
    best = max(shares.values(), default=0.0)
    return sorted(name for name, share in shares.items() if share == best) if best >= MIN_JACCARD else []


def load(directory: Path) -> Domain:
    conversations = json.loads((directory / "step4_conversations.json").read_text())
    units = {u["id"]: u for u in json.loads((directory / "step1_concept_pairs.json").read_text())}
    questions = json.loads((directory / "step5_proactive_questions.json").read_text())
    turns: list[Turn] = []
    about: dict[str, set[str]] = defaultdict(set)
    for session in conversations:
        for raw in session["turns"]:
            turn_id = f"S{session['session_id']}:T{raw['turn_id']}"
            turns.append(
                Turn(turn_id, session["session_id"], SPEAKERS[raw["role"]], raw["content"], _time(raw["timestamp"]))
            )
            for entity in raw["mentioned_entities"]:
                about[normalise(entity)].add(turn_id)
            for unit in raw["planted_pairs"]:
                for entity in units[unit]["involved_entities"] if unit in units else []:
                    about[normalise(entity)].add(turn_id)
    names = set(about)
    triggers: list[Trigger] = []
    left_out: list[str] = []
    candidates = mapped = 0
    for question in questions:
        concepts = tuple(c["concept"] for c in question["candidate_set"])
        sets = []
        for concept in concepts:
            candidates += 1
            turns_about = frozenset(t for name in match(concept, names) for t in about[name])
            if turns_about:
                mapped += 1
                sets.append(turns_about)
        if not sets:
            left_out.append(question["id"])
            continue
        kind = trigger_kind(question["trigger_type"])
        triggers.append(Trigger(question["id"], kind, question["question"], concepts, tuple(sets)))
    return Domain(directory.name, tuple(turns), tuple(triggers), candidates, mapped, tuple(left_out))


def surfaced(ranked_turns: list[str], about: tuple[frozenset[str], ...], k: int) -> int:
    """How many of the candidates a turn among the first k distinct ranked turns is about."""
    top = set(ranked_turns[:k])
    return sum(bool(top & turns) for turns in about)
