"""`engram profile`'s tables (app/cli/profile_command.py): a row per slot with the value, since when and the turn that
told it, what it held before, an ended slot, and stored text printed as text (no rich markup)."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from app.cli.profile_command import print_profile


def fact(value: str, since: str, until: str | None = None, **extra: Any) -> dict[str, Any]:
    proof = {"externalId": "graz" if until is None else "porto", "speaker": "lena", "occurredAt": since + "T10:00:00Z"}
    return {"propositionId": f"p-{value}", "text": f"lena lives in {value}.", "value": value, "polarity": True,
            "validFrom": since + "T00:00:00+00:00", "validTo": until and until + "T00:00:00+00:00",
            "provenance": [proof], **extra}  # fmt: skip


def printed(subjects: list[dict[str, Any]], truncated: bool = False) -> str:
    console = Console(width=200, record=True)
    print_profile(console, {"user": "lena", "subjects": subjects, "truncated": truncated}, "user 'lena'")
    return console.export_text()


def test_a_row_per_slot_now_and_before() -> None:
    out = printed([{"subject": "lena", "facts": 3, "slots": [
        {"slot": "home", "current": fact("Graz", "2025-08-01"), "alsoCurrent": [],
         "history": [fact("Porto", "2025-03-01", "2025-08-01")]},
        {"slot": "car", "current": None, "alsoCurrent": [],
         "history": [fact("[red]Volvo[/red]", "2024-01-01", "2025-06-01")]},
    ]}])  # fmt: skip
    assert "lena (3 facts) in user 'lena'" in out
    home = next(line for line in out.splitlines() if "home" in line)
    assert all(part in home for part in ("Graz", "2025-08-01", "graz (lena, 2025-08-01)", "Porto (2025-03-01 to"))
    car = next(line for line in out.splitlines() if "car" in line)
    assert "(ended)" in car and "[red]Volvo[/red]" in car  # stored text as it is, not markup


def test_an_empty_profile_says_so() -> None:
    assert "no facts in the profile of user 'lena'" in printed([])
    assert "ask for one --subject" in printed([{"subject": "lena", "facts": 0, "slots": []}], truncated=True)
