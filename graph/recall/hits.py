"""What a searcher hands the recall steps: hits of a search, concept hits, time windows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Hit:
    id: str
    score: float
    # An episode hit's knowledge, read in its search's statement: the current propositions it proves, the
    # prescriptions drawn from it (a trajectory step), and how much knowledge it ever proved (an episode whose
    # knowledge was superseded is not chit-chat and must not resurface in its place).
    proves: tuple[str, ...] = ()
    ever_proved: int = 0
    prescribes: tuple[str, ...] = ()
    text: str = ""  # a full-text hit's text, to score it again with the space's own statistics
    # A full-text hit's share of the query's distinctive words, against the pool's best (graph/recall/bm25.py
    # `distinctive_coverage`; 1 where not scored with the space's own statistics).
    coverage: float = 1.0


@dataclass(frozen=True)
class TimeWindow:
    """The days around a time a query names ([start, end)), and the days it names itself ([core_start, core_end))."""

    start: datetime
    end: datetime
    core_start: datetime
    core_end: datetime


@dataclass(frozen=True)
class WindowHits:
    hits: list[Hit]
    stated: int  # how many of them (the first) hold a statement whose own time is in a window


@dataclass(frozen=True)
class ConceptHit:
    id: str
    key: str
    idf: float
    df: int
    score: float = 1.0
