"""LongMemEval_S development questions (../shared/data/longmemeval): each question with its own haystack of
user/assistant chat sessions, as conversation records for the ingest pipeline and as flat turns for baselines."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engram.formats.records import MAX_TURN_CHARS

QUESTION_TYPES = (
    "single-session-user",
    "single-session-assistant",
    "single-session-preference",
    "multi-session",
    "temporal-reasoning",
    "knowledge-update",
)


@dataclass(frozen=True)
class HaystackTurn:
    id: str  # "<session id>:<position>"
    session: str  # the dataset's session id (a repeated session's copies share it)
    speaker: str
    text: str
    has_answer: bool


@dataclass(frozen=True)
class Session:
    id: str  # unique in the haystack: a repeated session's later copies get "#2", "#3"
    dataset_id: str
    started_at: datetime
    turns: tuple[HaystackTurn, ...]


@dataclass(frozen=True)
class LmeQuestion:
    id: str
    type: str
    text: str
    answer: str
    asked_at: datetime
    sessions: tuple[Session, ...]
    answer_sessions: tuple[str, ...]

    @property
    def turns(self) -> list[HaystackTurn]:
        return [turn for session in self.sessions for turn in session.turns]

    @property
    def evidence(self) -> list[str]:
        return [turn.id for turn in self.turns if turn.has_answer]

    @property
    def abstention(self) -> bool:
        return self.id.endswith("_abs")

    def record(self) -> dict[str, Any]:
        """The haystack as one conversation record of the ingest format (turns longer than the format allows are
        cut at its limit; `truncated_turns` counts them)."""
        return {
            "type": "conversation",
            "id": f"lme-{self.id}",
            "title": "chat history",
            "sessions": [
                {
                    "id": session.id,
                    "started_at": session.started_at.isoformat(),
                    "turns": [
                        {"speaker": turn.speaker, "id": turn.id, "text": turn.text[:MAX_TURN_CHARS]}
                        for turn in session.turns
                    ],
                }
                for session in self.sessions
            ],
        }

    @property
    def truncated_turns(self) -> int:
        return sum(len(turn.text) > MAX_TURN_CHARS for turn in self.turns)


def parse_date(text: str) -> datetime:
    """'2023/05/21 (Sun) 19:50' -> an aware UTC datetime (the dataset gives no zone)."""
    day, _, clock = text.split(" ")
    return datetime.strptime(f"{day} {clock}", "%Y/%m/%d %H:%M").replace(tzinfo=UTC)


def _question(raw: dict[str, Any]) -> LmeQuestion:
    copies: Counter[str] = Counter()
    sessions = []
    for dataset_id, date, turns in zip(
        raw["haystack_session_ids"], raw["haystack_dates"], raw["haystack_sessions"], strict=True
    ):
        copies[dataset_id] += 1
        session_id = dataset_id if copies[dataset_id] == 1 else f"{dataset_id}#{copies[dataset_id]}"
        kept = tuple(
            HaystackTurn(
                id=f"{session_id}:{position}",
                session=dataset_id,
                speaker=turn["role"].capitalize(),
                text=turn["content"].strip(),
                has_answer=bool(turn.get("has_answer", False)),
            )
            for position, turn in enumerate(turns)
            if turn["content"].strip()  # the ingest format refuses an empty turn
        )
        if kept:
            sessions.append(Session(session_id, dataset_id, parse_date(date), kept))
    return LmeQuestion(
        id=raw["question_id"],
        type=raw["question_type"],
        text=raw["question"],
        answer=str(raw["answer"]),
        asked_at=parse_date(raw["question_date"]),
        sessions=tuple(sessions),
        answer_sessions=tuple(raw["answer_session_ids"]),
    )


def load(path: Path) -> list[LmeQuestion]:
    with gzip.open(path, "rt") as handle:
        return [_question(raw) for raw in json.load(handle)]


def halves(questions: list[LmeQuestion]) -> dict[str, list[LmeQuestion]]:
    """A stratified split: within each question type, alternate questions go to `tune` and `report` (choose
    settings on the first, quote the second)."""
    split: dict[str, list[LmeQuestion]] = {"tune": [], "report": []}
    seen: Counter[str] = Counter()
    for question in questions:
        split["tune" if seen[question.type] % 2 == 0 else "report"].append(question)
        seen[question.type] += 1
    return split
