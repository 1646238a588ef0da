"""Recalled items as compact numbered text for a model's context: statement, kind, score, first evidence; a profile
as a line per slot."""

from __future__ import annotations

from app.mcp.models import AggregateAnswer, ProfileAnswer, ProfileFactEntry, RecalledItem

MAX_EVIDENCE_CHARS = 160


def _evidence(item: RecalledItem) -> str:
    if not item.provenance:
        return ""
    first = item.provenance[0]
    when = f" on {first.occurred_at:%Y-%m-%d}" if first.occurred_at else ""
    text = first.text if len(first.text) <= MAX_EVIDENCE_CHARS else first.text[: MAX_EVIDENCE_CHARS - 1] + "…"
    more = f" (+{len(item.provenance) - 1} more)" if len(item.provenance) > 1 else ""
    # A turn's text already starts with its speaker; a step or passage may have none.
    who = "" if not first.speaker or text.startswith(f"{first.speaker}:") else f" {first.speaker}"
    return f' | evidence{who}{when}: "{text}"{more}'


def render_context(items: list[RecalledItem], reason: str | None = None) -> str:
    """One line per item, best first; an empty answer says why (`reason`) instead of returning nothing."""
    if not items:
        return f"({reason})" if reason else "(nothing recalled)"
    lines = []
    for rank, item in enumerate(items, start=1):
        valid = f", true from {item.valid_from:%Y-%m-%d}" if item.valid_from else ""
        if item.superseded_by:
            until = f" until {item.valid_to:%Y-%m-%d}" if item.valid_to else ""
            valid += f"; no longer true{until}: replaced by {item.superseded_by}"
        lines.append(f"{rank}. {item.text} [{item.kind} {item.score:.2f}{valid}; id {item.id}]{_evidence(item)}")
    return "\n".join(lines)


def render_aggregate(answer: AggregateAnswer) -> str:
    """One line: the count, the sum with its unit (or the units apart), the periods, or why there is no figure."""
    parts = [f"aggregate ({answer.kind} of {answer.target!r}): count {answer.count}"]
    if answer.value is not None and answer.value_from in ("stated", "difference"):  # not already the count or sum
        unit = f" {answer.value_unit}" if answer.value_unit else ""
        parts.append(f"answer {answer.value:g}{unit} ({answer.value_from})")
    if answer.sum is not None:
        parts.append(f"sum {answer.sum:g} {answer.unit}")
    elif len(answer.units) > 1:
        parts.append("sums " + ", ".join(f"{u.sum:g} {u.unit}" for u in answer.units))
    for period in answer.periods:
        sums = ", ".join(f"{s.sum:g} {s.unit}" for s in period.sums)
        parts.append(f"{answer.period} of {period.start}: {period.count}" + (f" ({sums})" if sums else ""))
    if answer.reason:
        parts.append(answer.reason)
    return "; ".join(parts)


def render_profile(answer: ProfileAnswer) -> str:
    """A line per slot: `subject · slot: value (since ...; id ...)`, then what it replaced; an empty profile says so."""
    lines = []
    for subject in answer.subjects:
        for slot in subject.slots:
            now = [f for f in (slot.current, *slot.also_current) if f is not None]
            held = "; ".join(_held(f) for f in now) if now else "nothing now (ended)"
            before = "; ".join(_held(f, until=True) for f in slot.history)
            lines.append(f"{subject.subject} · {slot.slot}: {held}" + (f" | before: {before}" if before else ""))
    if not lines:
        return f"(no facts in the profile of {answer.user!r})"
    if answer.truncated:
        lines.append("(more facts than shown: ask for one subject)")
    return "\n".join(lines)


def _held(fact: ProfileFactEntry, until: bool = False) -> str:
    value = fact.value or fact.text
    value = value if fact.polarity else f"not {value}"
    since = f" since {fact.valid_from:%Y-%m-%d}" if fact.valid_from else ""
    to = f" until {fact.valid_to:%Y-%m-%d}" if until and fact.valid_to else ""
    return f"{value} ({(since + to).strip() or 'undated'}; id {fact.proposition_id})"
