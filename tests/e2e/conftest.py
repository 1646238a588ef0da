from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.workers import stack_worker_stopped

CONVERSATION: dict[str, Any] = {
    "type": "conversation",
    "id": "chat-1",
    "title": "Caroline and Melanie",
    "sessions": [
        {
            "id": "s1",
            "started_at": "2023-05-08T13:56:00Z",
            "turns": [
                {"speaker": "Caroline", "id": "D1:1", "text": "Hey Mel! Good to see you!"},
                {"speaker": "Melanie", "id": "D1:2", "text": "Hi Caroline! I'm swamped with the kids and work."},
                {
                    "speaker": "Caroline",
                    "id": "D1:3",
                    "text": "I went to a LGBTQ support group yesterday and it was so powerful.",
                },
                {
                    "speaker": "Melanie",
                    "id": "D1:4",
                    "text": "I painted a sunrise over the lake last year.",
                    "image_caption": "a photo of a painting of a sunrise over a lake",
                },
            ],
        },
        {
            "id": "s2",
            "started_at": "2023-05-25T10:00:00Z",
            "turns": [
                {
                    "speaker": "Caroline",
                    "id": "D2:1",
                    "text": "I'm researching adoption agencies for my future family.",
                },
                {"speaker": "Melanie", "id": "D2:2", "text": "I ran a charity race for mental health last Saturday."},
            ],
        },
    ],
}
DOCUMENT: dict[str, Any] = {
    "type": "document",
    "id": "handbook",
    "title": "Team handbook",
    "created_at": "2024-01-15T09:00:00Z",
    "text": "The on-call engineer restarts the ingestion worker after every deploy.\n\n"
    "Quarterly reviews happen in the first week of April, July, October and January.",
}
TRAJECTORY: dict[str, Any] = {
    "type": "trajectory",
    "id": "run-7",
    "task": "prepare dinner",
    "steps": [
        {"observation": "kitchen", "action": "open the fridge", "subgoal": "find ingredients for pasta"},
        {"observation": "fridge open", "action": "take tomatoes and basil", "reward": 0.5},
        {"observation": "calendar", "action": "book a flight to Paris", "subgoal": "plan the holiday trip"},
        {"observation": "booking site", "action": "reserve a hotel near the Louvre", "reward": 1.0},
    ],
}


@pytest.fixture()
def conversation() -> dict[str, Any]:
    return CONVERSATION


@pytest.fixture()
def document() -> dict[str, Any]:
    return DOCUMENT


@pytest.fixture()
def trajectory() -> dict[str, Any]:
    return TRAJECTORY


@pytest.fixture()
def main_worker_stopped() -> Iterator[None]:
    """The stack's worker stopped for the test (which starts workers of its own), started again after it."""
    with stack_worker_stopped():
        yield
