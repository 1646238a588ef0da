"""The profile tool's `context`: a line per slot, what holds now and what it replaced, an ended slot said so."""

from __future__ import annotations

from datetime import UTC, datetime

from app.mcp.models import ProfileAnswer, ProfileFactEntry, ProfileSlotEntry, ProfileSubjectEntry
from app.mcp.render import render_profile


def _fact(id: str, value: str, since: int, until: int | None = None, polarity: bool = True) -> ProfileFactEntry:
    return ProfileFactEntry(
        proposition_id=id, text=f"lena lives in {value}.", predicate="live in", value=value, value_type="GPE",
        polarity=polarity, valid_from=datetime(2025, since, 1, tzinfo=UTC),
        valid_to=datetime(2025, until, 1, tzinfo=UTC) if until else None, superseded_by="p2" if until else None,
        provenance=[],
    )  # fmt: skip


def test_a_line_per_slot_with_what_it_replaced_and_an_ended_slot() -> None:
    answer = ProfileAnswer(
        user="lena",
        subjects=[
            ProfileSubjectEntry(
                subject="lena",
                slots=[
                    ProfileSlotEntry(
                        slot="home", current=_fact("p2", "Graz", 8), also_current=[],
                        history=[_fact("p1", "Porto", 3, 8)],
                    ),
                    ProfileSlotEntry(slot="car", current=None, also_current=[], history=[_fact("c1", "a Volvo", 1, 6)]),
                ],
            )
        ],
        truncated=False,
        context="",
    )  # fmt: skip
    assert render_profile(answer).split("\n") == [
        "lena · home: Graz (since 2025-08-01; id p2) | before: Porto (since 2025-03-01 until 2025-08-01; id p1)",
        "lena · car: nothing now (ended) | before: a Volvo (since 2025-01-01 until 2025-06-01; id c1)",
    ]


def test_an_empty_profile_says_so() -> None:
    empty = ProfileAnswer(user="bob", subjects=[], truncated=False, context="")
    assert render_profile(empty) == "(no facts in the profile of 'bob')"
