"""From the matching statements to the aggregate: their quantities, the events left once retellings are folded, and
the answer assembled from the count, sums and periods the tally statement computed (cypher/aggregate/tally.cypher).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import date, datetime
from typing import Any

from engram.extraction.keyphrases import STOPWORDS
from graph.aggregate.dedup import Match
from graph.aggregate.intent import AggregateIntent
from graph.aggregate.models import AggregateItem, AggregateResult, Figure, PeriodTotal, UnitTotal
from graph.aggregate.quantity import COMMON_UNIT, quantity_in
from graph.provenance import Provenance

# A capitalised word: a name, unless a stop word starting a sentence ("By the way") or a speaker's own name.
_NAME = re.compile(r"\b[A-Z][a-z]+")
TimeFn = Callable[[Any], datetime | None]
ProofFn = Callable[[dict[str, Any]], Provenance]


# The past forms of common irregular verbs: "spend" finds "spent", "run" finds "ran" (English morphology, not wording).
IRREGULAR: dict[str, tuple[str, ...]] = {
    "run": ("ran",), "spend": ("spent",), "buy": ("bought",), "pay": ("paid",), "go": ("went", "gone"),
    "eat": ("ate", "eaten"), "drink": ("drank", "drunk"), "swim": ("swam",), "ride": ("rode", "ridden"),
    "make": ("made",), "take": ("took", "taken"), "see": ("saw", "seen"), "get": ("got",), "give": ("gave",),
    "sell": ("sold",), "write": ("wrote", "written"), "drive": ("drove", "driven"), "fly": ("flew", "flown"),
    "win": ("won",), "lose": ("lost",), "meet": ("met",), "bring": ("brought",), "teach": ("taught",),
    "catch": ("caught",), "sleep": ("slept",), "leave": ("left",), "keep": ("kept",), "begin": ("began", "begun"),
    "sing": ("sang", "sung"), "grow": ("grew", "grown"), "draw": ("drew", "drawn"), "break": ("broke", "broken"),
    "wear": ("wore", "worn"), "build": ("built",), "send": ("sent",), "hold": ("held",), "find": ("found",),
    "hear": ("heard",), "tell": ("told",),
}  # fmt: skip


def stems(terms: Sequence[str]) -> list[list[str]]:
    """Each target word's forms, as the starts of words to look for: a plural's or a verb form's stem finds the others
    ("kits" -> "kit", "running" -> "run", "baked" -> "bak"), and an irregular verb's past forms ("ran")."""
    out = []
    for term in terms:
        if len(term) > 4 and term.endswith("ies"):
            term = term[:-3]
        elif len(term) > 5 and term.endswith("ing"):
            term = term[:-3]
            term = term[:-1] if len(term) > 2 and term[-1] == term[-2] else term
        elif len(term) > 4 and term.endswith("ed"):
            term = term[:-2]
        elif len(term) > 3 and term.endswith("s") and not term.endswith("ss"):
            term = term[:-1]
        forms = [term, *IRREGULAR.get(term, ())]
        if forms not in out and len(term) > 1:
            out.append(forms)
    return out


def asked_units(intent: AggregateIntent) -> set[str] | None:
    """The common units an amount must be in to count for the question (None: any)."""
    if intent.unit is None:
        return None
    return {COMMON_UNIT.get(intent.unit, (intent.unit, 1.0))[0]}


def usual_unit(intent: AggregateIntent, rows: Sequence[dict[str, Any]]) -> set[str] | None:
    """For a sum or comparison asking no unit, the common unit most matches stating one amount state it in (None: no
    one unit is most usual): the unit a statement with amounts of several units ("missed the train by 5 minutes and
    took a taxi, which cost $12") is read in."""
    if intent.kind not in ("sum", "compare") or intent.unit is not None:
        return None
    found = Counter(q.common().unit for row in rows if (q := quantity_in(row["text"])) is not None)
    ranked = found.most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None
    return {ranked[0][0]}


def as_match(row: dict[str, Any], units: set[str] | None, to_time: TimeFn, usual: set[str] | None = None) -> Match:
    """The row as a match; its amount, where it states amounts of several units, the one in the `usual` unit."""
    at = to_time(row.get("at"))
    quantity = quantity_in(row["text"], units)
    if quantity is None and usual:
        quantity = quantity_in(row["text"], usual)
    source = next((p.get("source_id") for p in row["provenance"] if p.get("source_id")), None)
    dated = bool(row.get("dated", True))
    speakers = {p.get("speaker") for p in row["provenance"]}
    names = frozenset(n for n in _NAME.findall(row["text"]) if n not in speakers and n.lower() not in STOPWORDS)
    day = at.date() if at else None
    return Match(row["id"], row["text"], day, row["embedding"], quantity, source, dated, names)


def events_param(events: Sequence[Match]) -> list[dict[str, Any]]:
    """The tally statement's $events: each event's statement and its amount in the common unit of its dimension."""
    param = []
    for event in events:
        common = event.quantity.common() if event.quantity else None
        value, unit = (common.value, common.unit) if common else (None, None)
        param.append({"id": event.id, "value": value, "unit": unit})
    return param


def result(
    intent: AggregateIntent,
    rows: Sequence[dict[str, Any]],
    events: Sequence[Match],
    tally: dict[str, Any],
    to_time: TimeFn,
    to_proof: ProofFn,
    answer: Callable[[int | None, float | None, str | None], Figure | None] | None = None,
) -> AggregateResult:
    by_id = {row["id"]: row for row in rows}
    units = [UnitTotal(unit=u["unit"], sum=round(float(u["sum"]), 6), count=int(u["count"])) for u in tally["units"]]
    reason = None
    if not events:
        reason = "no memory matches the question"
    elif not units and intent.kind in ("sum", "compare"):
        reason = "no quantity stated in the matching memories"
    elif len(units) > 1:
        reason = "amounts in different units, listed apart: " + ", ".join(u.unit for u in units)
    # A count's figure is the count: an amount its events happen to state ("four days a week") is no sum it asked for
    # (the units stay listed).
    single = units[0] if len(units) == 1 and intent.kind in ("sum", "compare") else None
    items = []
    for event in events:
        row = by_id[event.id]
        common = event.quantity.common() if event.quantity else None
        items.append(
            AggregateItem(
                id=event.id,
                text=event.text,
                at=to_time(row.get("at")),
                quantity=common.value if common else None,
                unit=common.unit if common else None,
                similarity=round(float(row["similarity"]), 4),
                duplicates=event.duplicates,
                provenance=[to_proof(proof) for proof in row["provenance"]],
            )
        )
    count = int(tally["count"]) if events else None
    found = answer(count, single.sum if single else None, single.unit if single else None) if answer else None
    if intent.kind == "compare" and events and found is None and reason is None:
        reason = "no two amounts of one unit to compare"
    return AggregateResult(
        value=found.value if found else None,
        value_unit=found.unit if found else None,
        value_from=found.source if found else None,
        kind=intent.kind,
        target=intent.target,
        period=intent.period,
        count=count,
        sum=single.sum if single else None,
        unit=single.unit if single else None,
        units=units,
        periods=periods(tally["periods"]),
        unquantified=int(tally["unquantified"]),
        scanned=len(rows),
        items=items,
        reason=reason,
    )


def periods(rows: Sequence[dict[str, Any]]) -> list[PeriodTotal]:
    """The tally's (period, unit) rows folded into one figure per period, in time order."""
    folded: dict[str, PeriodTotal] = {}
    for row in rows:
        start = date.fromisoformat(row["period"])
        period = folded.setdefault(row["period"], PeriodTotal(start=start, count=0, sums=[]))
        period.count += int(row["count"])
        if row["unit"] is not None:
            period.sums.append(UnitTotal(unit=row["unit"], sum=round(float(row["sum"]), 6), count=int(row["count"])))
    return [folded[key] for key in sorted(folded)]


def leading(events: Sequence[Match], lead: int, covered: frozenset[str] | None = None) -> list[str]:
    """The events to lead the items with: the first of each source (best first), then the others; at most `lead`.
    With `covered` (the sources the ranking's first items already come from): only the first event of each source
    not among them, for the sources the ranking left out."""
    firsts: list[str] = []
    rest: list[str] = []
    seen: set[str | None] = set(covered or ())
    for event in events:
        if event.source in seen:
            rest.append(event.id)
        else:
            seen.add(event.source)
            firsts.append(event.id)
    return (firsts if covered is not None else firsts + rest)[:lead]


def telling(
    events: Sequence[Match],
    rows: dict[str, dict[str, Any]],
    min_share: float,
    min_alone: float,
    amounts: bool = False,
) -> list[Match]:
    """The events fit to lead the items: those saying `min_share` of the target's words, or as close to the question
    as `min_alone`, or (`amounts`: a sum or a comparison) stating an amount, which is what the figure adds up. A loose
    match moved above the ranked items would push the ranking's own evidence down for nothing."""
    return [
        event
        for event in events
        if rows[event.id]["term_share"] >= min_share
        or float(rows[event.id]["similarity"]) >= min_alone
        or (amounts and event.quantity is not None)
    ]
