"""Supersession from facts: which of a subject's facts is current, decided from the facts themselves (subject, slot,
value, state or event), deterministically (the same facts give the same supersessions).

- **A change naming the old value** ("moved from Porto to Graz", "sold the Volvo", "broke up with Anselm", "Ottoline
  left, so ..."): a fact whose `ends` names a value ends the subject's current state fact holding it, whatever dates the
  two carry (people tell things out of order), and its new value, if it has one, takes the ended fact's slot.
- **Same slot, new value:** of the subject's current state facts of one slot, each is ended by the next one in world
  time (`valid_from`) that says another value. A slot no seed names (engram/facts/slots.py) is only the same verb with
  the same preposition and kind of value, which may be two attributes ("I see Dr. Okonkwo", "I'm seeing Tomasz"): there
  the later value must be told as new ("now", "instead") to end the earlier.
- **No change where nothing changed:** events end nothing and are never ended by a newer value; an addition to a
  plural attribute ("we also got a cat") replaces nothing; the same value told again is no change.

The ended fact stays (status 'superseded', `valid_to`, `superseded_by`: supersede.cypher, reason 'changed'), for `asOf`,
history and the profile. docs/supersession.md describes the model."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

import neo4j

from engram.facts.slots import SEED_SLOTS
from graph.consolidation.duplicates import Supersession, supersede
from graph.consolidation.model import native
from graph.cypher import load

# Words that do not tell two values apart ("my Volvo estate" is "the Volvo estate").
_FILLER = frozenset({"a", "an", "the", "my", "his", "her", "their", "our", "your", "old", "new", "of", "'s"})


@dataclass(frozen=True)
class FactRow:
    id: str
    subject: str
    slot: str
    value: str
    ends: tuple[str, ...]
    adds: bool
    renews: bool
    event: bool
    polarity: bool
    valid_from: datetime | None
    current: bool = True

    @classmethod
    def of(cls, row: dict[str, Any]) -> FactRow:
        return cls(
            id=row["id"], subject=row["subject"], slot=row["slot"], value=row["value"], ends=tuple(row["ends"]),
            adds=bool(row["adds"]), renews=bool(row.get("renews")), event=bool(row["event"]),
            polarity=bool(row["polarity"]), valid_from=native(row["valid_from"]), current=bool(row["current"]),
        )  # fmt: skip

    @property
    def is_state(self) -> bool:
        return not self.event and self.polarity and bool(self.value)


def value_words(value: str) -> frozenset[str]:
    return frozenset(w for w in re.findall(r"[\w'-]+", value.casefold()) if w not in _FILLER)


def names_value(named: str, value: str) -> bool:
    """Whether an ended value `named` is the fact's `value`: the words of one hold the other's ("PulseFit membership"
    names "PulseFit"; "nurse" names "nurse practitioner")."""
    a, b = value_words(named), value_words(value)
    return bool(a and b) and (a <= b or b <= a)


_COUNT_WORDS = frozenset(
    {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "a", "an"}
)


def _counted(value: str) -> tuple[frozenset[str], frozenset[str], bool]:
    """(the counts, the thing counted (singular), whether a count is an ordinal) of a value: "4 painting projects" ->
    ({4}, {painting, project}, False); "my 5th painting project" -> ({5}, {painting, project}, True)."""
    words = re.findall(r"[\w'-]+", value.casefold())
    ordinal = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
    counts = {w for w in words if w.isdigit() or w in _COUNT_WORDS}
    ordinals = {m.group(1) for w in words if (m := ordinal.match(w))}
    thing = frozenset(
        w[:-1] if w.endswith("s") and len(w) > 3 else w
        for w in words
        if w not in counts and not ordinal.match(w) and w not in _FILLER
    )
    return frozenset(counts | ordinals), thing, bool(ordinals)


def recounted(old: str, new: str) -> bool:
    """Whether two values count the same thing differently ("two cats", "three cats"; "4 painting projects", "my 5th
    painting project")."""
    (old_count, old_thing, _), (new_count, new_thing, _) = _counted(old), _counted(new)
    return bool(old_count and new_count and old_thing) and old_thing == new_thing and old_count != new_count


def _running_count(fact: FactRow) -> bool:
    """A fact that counts something of the subject's: a state with a count ("I have completed 4 projects"), or an
    event told by its place in a series ("I just finished my 5th project"); two events counted alike ("ran 5 km",
    "ran 10 km") are two events."""
    counts, thing, ordinal = _counted(fact.value)
    return bool(counts and thing) and fact.current and fact.polarity and (fact.is_state or ordinal)


@dataclass(frozen=True)
class FactChanges:
    supersessions: list[Supersession]
    slots: dict[str, str]  # fact id -> the slot it takes from the value it ended


def plan_fact_changes(facts: Sequence[FactRow]) -> FactChanges:
    """The supersessions among one space's facts (of any subjects), oldest change first, and the slots changes take
    from the values they ended."""
    ended: dict[str, str] = {}  # replaced id -> survivor id
    slots: dict[str, str] = {}
    by_subject: dict[str, list[FactRow]] = {}
    for fact in facts:
        by_subject.setdefault(fact.subject, []).append(fact)
    for told in by_subject.values():
        # 1. changes that name the old value: those with a new value first, which then stands for what it ended
        for change in sorted(told, key=lambda f: not f.value):
            for named in change.ends:
                if change.value and names_value(named, change.value):
                    continue  # "switched from the early shift to the late shift" names both
                for old in told:
                    if old.id == change.id or not old.is_state or not names_value(named, old.value):
                        continue
                    if change.value and old.slot and change.id not in slots:
                        slots[change.id] = slots.get(old.id, old.slot)
                    if change.current and old.current:
                        ended.setdefault(old.id, change.id)
        # 2. same slot, a new value later in the world
        by_slot: dict[str, list[FactRow]] = {}
        for fact in told:
            slot = slots.get(fact.id, fact.slot)
            if slot and fact.current and fact.is_state and not fact.adds and fact.id not in ended:
                by_slot.setdefault(slot, []).append(fact)
        for slot, versions in by_slot.items():
            seeded = slot in SEED_SLOTS
            versions.sort(key=lambda f: (_time(f.valid_from), f.id))
            for older, newer in pairwise(versions):
                later = _time(newer.valid_from) > _time(older.valid_from)
                told_new = newer.renews or seeded or recounted(older.value, newer.value)
                if later and value_words(newer.value) != value_words(older.value) and told_new:
                    ended[older.id] = newer.id
        # 3. a new count of the same thing, whatever verb tells it ("completed 4 projects", "finished my 5th project")
        counting = sorted((f for f in told if _running_count(f)), key=lambda f: (_time(f.valid_from), f.id))
        for i, older in enumerate(counting):
            for newer in counting[i + 1 :]:
                later = _time(newer.valid_from) > _time(older.valid_from)
                if later and older.id not in ended and recounted(older.value, newer.value):
                    ended[older.id] = newer.id
                    break
    order = {fact.id: i for i, fact in enumerate(facts)}
    plans = [
        Supersession(survivor, replaced, "changed", 1.0, carry=False)
        for replaced, survivor in sorted(ended.items(), key=lambda kv: (order[kv[0]], kv[0]))
    ]
    return FactChanges(plans, slots)


def _time(value: datetime | None) -> float:
    return value.timestamp() if value is not None else float("-inf")


@dataclass(frozen=True)
class FactChangeOutcome:
    facts: int  # current facts of the subjects looked at
    ended: list[str]
    slots_taken: int


def link_fact_changes(driver: neo4j.Driver, database: str, space: str, ids: Sequence[str]) -> FactChangeOutcome:
    """Plans and writes the fact changes among the current facts of the subjects that the propositions `ids` are
    about (an ingest's new propositions)."""
    if not ids:
        return FactChangeOutcome(0, [], 0)
    rows, _, _ = driver.execute_query(
        load("consolidate/subject_facts"), space=space, ids=list(ids), database_=database,
        routing_=neo4j.RoutingControl.READ,
    )  # fmt: skip
    facts = [FactRow.of(r.data()) for r in rows]
    changes = plan_fact_changes(facts)
    if changes.slots:
        driver.execute_query(
            load("consolidate/set_fact_slots"), space=space, database_=database,
            slots=[{"id": k, "slot": v} for k, v in sorted(changes.slots.items())],
        )  # fmt: skip
    replaced = supersede(driver, database, space, changes.supersessions)
    return FactChangeOutcome(len(facts), sorted(replaced), len(changes.slots))
