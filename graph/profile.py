"""A user's profile: what memory believes about each subject now, slot by slot, and what it believed before.

Facts (engram/facts/) are propositions with a subject, a slot, a typed value and a time; supersession ends a slot's
old value when a later one replaces it (graph/consolidation/fact_changes.py). The profile reads them once
(cypher/profile/profile.cypher, in a read transaction of the caller's memory space, which is one user's partition)
and groups them here: per subject, per slot, the current fact, any other current value of a plural slot, and the
replaced versions, newest first. A slot whose every version was replaced ("I sold my car") has no current fact and
keeps its history. Events are no profile entries.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graph.provenance import Provenance

MAX_PROFILE_FACTS = 5_000  # fact versions one profile reads (a `subject` narrows it)
_EARLIEST = datetime.min.replace(tzinfo=UTC)


@dataclass(frozen=True)
class ProfileFact:
    """One version of a slot's value."""

    id: str
    text: str
    predicate: str
    value: str
    value_type: str
    polarity: bool
    status: str  # 'active' or 'superseded'
    valid_from: datetime | None
    valid_to: datetime | None
    superseded_by: str | None
    reason: str | None  # why it was replaced (the SUPERSEDES link's reason: changed, updated, merge, correction)
    recorded_at: datetime | None
    provenance: list[Provenance]

    @property
    def since(self) -> datetime:
        """When it holds from (when memory recorded it, if it names no time), for ordering."""
        return self.valid_from or self.recorded_at or _EARLIEST


@dataclass
class ProfileSlot:
    subject: str
    slot: str
    current: ProfileFact | None = None
    also_current: list[ProfileFact] = field(default_factory=list)  # other current values of a plural slot
    history: list[ProfileFact] = field(default_factory=list)  # replaced versions, newest first


@dataclass
class ProfileSubject:
    subject: str
    facts: int  # fact versions memory holds about it (current and replaced)
    slots: list[ProfileSlot]


@dataclass
class Profile:
    user: str
    subjects: list[ProfileSubject]
    truncated: bool = False  # more facts than MAX_PROFILE_FACTS: ask for one subject


Run = Callable[..., Sequence[Any]]  # GraphReader.run: a statement's name and its parameters -> records


def read_profile(run: Run, user: str, subject: str | None = None, limit: int = MAX_PROFILE_FACTS) -> Profile:
    """The profile of the memory `run` reads (one user's partition), for `user` (whose own facts come first)."""
    wanted = subject.strip().lower() if subject is not None else None
    records = run("profile/profile", subject=wanted, limit=limit + 1)
    rows = [(dict(r["fact"]), dict(r["current_head"]) if r["current_head"] is not None else None) for r in records]
    return build_profile(user, rows[:limit], truncated=len(rows) > limit)


def build_profile(
    user: str, rows: Iterable[tuple[dict[str, Any], dict[str, Any] | None]], truncated: bool = False
) -> Profile:
    """Group profile.cypher's rows: (fact, the slot-less current end of its chain or None)."""
    slots: dict[tuple[str, str], ProfileSlot] = {}
    current: dict[tuple[str, str], dict[str, ProfileFact]] = defaultdict(dict)
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    counts: Counter[str] = Counter()
    for row, head in rows:
        subject = str(row["subject"])
        key = (subject.lower(), str(row["slot"]))
        spellings[key[0]][subject] += 1
        counts[key[0]] += 1
        slot = slots.setdefault(key, ProfileSlot(subject=subject, slot=key[1]))
        fact = _fact(row)
        if fact.status == "active":
            current[key][fact.id] = fact
        else:
            slot.history.append(fact)
            if head is not None:  # a correction stands for the slot now
                current[key].setdefault(str(head["id"]), _fact(head))
    for key, slot in slots.items():
        slot.subject = spellings[key[0]].most_common(1)[0][0]
        now = sorted(current[key].values(), key=lambda f: (f.since, f.id), reverse=True)
        slot.current, slot.also_current = (now[0], now[1:]) if now else (None, [])
        slot.history.sort(key=lambda f: (f.valid_to or f.since, f.since, f.id), reverse=True)
    by_subject: dict[str, list[ProfileSlot]] = defaultdict(list)
    for key, slot in slots.items():
        by_subject[key[0]].append(slot)
    subjects = [
        ProfileSubject(
            subject=spellings[name].most_common(1)[0][0],
            facts=counts[name],
            slots=sorted(found, key=lambda s: (s.current is None, s.slot)),
        )
        for name, found in by_subject.items()
    ]
    own = user.strip().lower()
    subjects.sort(key=lambda s: (s.subject.lower() != own, -s.facts, s.subject.lower()))
    return Profile(user=user, subjects=subjects, truncated=truncated)


def _fact(row: dict[str, Any]) -> ProfileFact:
    proofs = sorted(row.get("provenance") or [], key=lambda e: (_time(e.get("occurred_at")) or _EARLIEST,
                                                                 e.get("seq") or 0, str(e.get("id"))))  # fmt: skip
    return ProfileFact(
        id=str(row["id"]),
        text=str(row.get("text") or ""),
        predicate=str(row.get("predicate") or ""),
        value=str(row.get("value") or ""),
        value_type=str(row.get("value_type") or ""),
        polarity=bool(row.get("polarity", True)),
        status=str(row.get("status") or "active"),
        valid_from=_time(row.get("valid_from")),
        valid_to=_time(row.get("valid_to")),
        superseded_by=row.get("superseded_by"),
        reason=row.get("reason"),
        recorded_at=_time(row.get("recorded_at")),
        provenance=[
            Provenance(
                episode_id=str(e["id"]),
                external_id=str(e.get("external_id") or ""),
                source_id=str(e.get("source_id") or ""),
                speaker=str(e.get("speaker") or ""),
                text=str(e.get("text") or ""),
                occurred_at=_time(e.get("occurred_at")),
            )
            for e in proofs
        ],
    )


def _time(value: Any) -> datetime | None:
    """A Neo4j time (or a Python one) as a Python datetime."""
    if value is None:
        return None
    native = value.to_native() if hasattr(value, "to_native") else value
    return native if isinstance(native, datetime) else None
