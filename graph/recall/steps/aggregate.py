"""Aggregate: a question that counts, adds up, compares or lists over time ("How many times did I go running this
month?", "How much did I spend on the car in total?", "Did I drink more coffee this week than last?") is answered from
every matching memory in scope, not from the ranking's top items: read exhaustively (cypher/aggregate/matching),
each event told twice folded into one (graph/aggregate/dedup.py), each amount stated parsed with its unit
(graph/aggregate/quantity.py), and the count, sums and per-period figures computed in Cypher
(cypher/aggregate/tally). The result is `RecallResult.aggregate`; the events (the first of each source first) also
lead the ranked items, after the ranking's first `keep_first`, so what the figure counts is what the caller reads.
After the Relevance step: when no ranked item reaches `aggregate.min_relevance` and no match holds most of the
question's target words, memory holds nothing the question is about ("egg tarts" where only bread was baked), and the
answer is no number with the reason, not a count of whatever resembles it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from graph.aggregate.answer import figure, restricted, worded
from graph.aggregate.compute import (
    as_match,
    asked_units,
    events_param,
    leading,
    result,
    stems,
    telling,
    usual_unit,
)
from graph.aggregate.dedup import Match, fold_duplicates
from graph.aggregate.intent import AggregateIntent, aggregate_intent
from graph.aggregate.store import MatchQuery, ReadsAggregates
from graph.recall.candidates import Ranked
from graph.recall.hydration import as_episodes, item_time, provenance_of
from graph.recall.logic.relevance import QueryCoverage, nothing_relevant
from graph.recall.logic.when import query_spans
from graph.recall.models import ItemKind, MemoryType
from graph.recall.query import persons_meant
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step


@dataclass(frozen=True)
class AggregateFound:
    intent: AggregateIntent
    rows: list[dict[str, Any]]
    events: list[Match]
    tally: dict[str, Any]
    windows: list[tuple[datetime, datetime]] | None
    speakers: list[str] | None
    unsupported: str | None = None  # why memory supports no figure (nothing relevant enough), when it does not


_NO_TALLY: dict[str, Any] = {"count": 0, "unquantified": 0, "units": [], "periods": []}


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


class Aggregate(Step[AggregateFound]):
    name = "aggregate"

    def runs(self, run: RecallRun) -> bool:
        return (
            run.config.aggregate.enabled
            and isinstance(run.searcher, ReadsAggregates)
            and aggregate_intent(run.request.query) is not None
        )

    def find(self, run: RecallRun) -> AggregateFound | None:
        intent = aggregate_intent(run.request.query)
        if intent is None or not isinstance(run.searcher, ReadsAggregates):
            return None
        coverage = run.coverage or QueryCoverage([], {}, [], [])
        if coverage.unmentioned:  # memory never mentions what the question names: no figure, not a count of 0
            return AggregateFound(intent, [], [], _NO_TALLY, None, None, nothing_relevant(coverage, None, 0.0))
        request, config = run.request, run.config.aggregate
        spans = query_spans(request.query, request.now)
        windows = [(_midnight(s.first), _midnight(s.end)) for s in spans] or None
        speakers = persons_meant(request.query, request.asker, request.addressee) or None
        reader = run.searcher.aggregates()
        query = MatchQuery(
            run.vector, stems(intent.terms), speakers, windows, config.min_similarity, config.min_similarity_alone,
            config.min_term_share, config.min_confidence, config.max_items,
        )  # fmt: skip
        rows = restricted(reader.matching(query), intent, config.min_similarity_alone)
        best = max((item.relevance for item in run.ranked if item.relevance is not None), default=None)
        # The request's bar where it sets one (one abstention decision for recall and its figure), else the path's own.
        bar = config.min_relevance if request.min_relevance is None else request.min_relevance
        if not worded(rows, intent, config.min_term_share) and (best is None or best < bar):
            why = nothing_relevant(run.coverage or QueryCoverage([], {}, [], []), best, bar)
            return AggregateFound(intent, [], [], _NO_TALLY, windows, speakers, why)
        units, usual = asked_units(intent), usual_unit(intent, rows)
        matches = [as_match(row, units, item_time, usual) for row in rows]
        events = fold_duplicates(matches, config.same_event, config.same_source)
        tally = reader.tally(events_param(events), intent.period)
        return AggregateFound(intent, rows, events, tally, windows, speakers)

    def apply(self, run: RecallRun, found: AggregateFound | None) -> None:
        if found is None:
            return
        intent, rows, events = found.intent, found.rows, found.events
        answer = result(
            intent, rows, events, found.tally, item_time, provenance_of,
            lambda count, total, unit: figure(intent, rows, events, count, total, unit, item_time),
        )  # fmt: skip
        if found.unsupported:
            answer.reason = found.unsupported
        run.aggregate = answer
        led = _lead(run, found)
        run.trace.add(
            "aggregate",
            kind=answer.kind,
            target=answer.target,
            terms=list(found.intent.terms),
            period=answer.period,
            speakers=found.speakers,
            days=[{"from": s.isoformat(), "to": e.isoformat()} for s, e in found.windows or []],
            scanned=answer.scanned,
            events=len(found.events),
            folded={e.id: e.duplicates for e in found.events if e.duplicates},
            count=answer.count,
            sum=answer.sum,
            unit=answer.unit,
            units=[u.model_dump() for u in answer.units],
            reason=answer.reason,
            head=found.intent.head,
            restrictors=list(found.intent.restrictors),
            value=answer.value,
            value_unit=answer.value_unit,
            value_from=answer.value_from,
            led=led,
        )


def _lead(run: RecallRun, found: AggregateFound) -> list[str]:
    """Puts the events (the first of each source first) after the ranking's first `keep_first` items."""
    config = run.config.aggregate
    covered = None
    if config.new_sources_only:
        covered = frozenset(p.source_id for item in run.ranked[: config.lead] for p in item.provenance)
    rows = {row["id"]: row for row in found.rows}
    amounts = config.lead_amounts and found.intent.kind in ("sum", "compare")
    strong = telling(found.events, rows, config.lead_min_share, config.min_similarity_alone, amounts)
    ids = leading(strong, config.lead, covered)
    if not ids:
        return []
    made = [
        Ranked(
            id=i,
            kind=ItemKind.PROPOSITION,
            text=rows[i]["text"],
            score=0.0,
            components={"aggregate": round(float(rows[i]["similarity"]), 4)},
            provenance=[provenance_of(p) for p in rows[i]["provenance"]],
            valid_from=item_time(rows[i].get("at")),
            found_by=["aggregate"],
        )
        for i in ids
    ]
    if run.types and run.types[0] is MemoryType.EPISODIC:
        made = as_episodes(made)
    ranked = run.ranked
    present = {item.id: item for item in ranked}
    lead = [present.get(item.id, item) for item in made]
    keep = [item for item in ranked[: config.keep_first]]
    kept = {item.id for item in keep}
    lead = [item for item in lead if item.id not in kept]
    chosen = kept | {item.id for item in lead}
    rest = [item for item in ranked[config.keep_first :] if item.id not in chosen]
    ordered = keep + lead + rest
    # Scores fall with the rank: a moved item takes the score of the item it now stands above.
    for below in range(len(ordered) - 1, 0, -1):
        ordered[below - 1].score = max(ordered[below - 1].score, ordered[below].score)
    run.ranked = ordered
    return [item.id for item in lead]
