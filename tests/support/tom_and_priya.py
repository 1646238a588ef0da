"""A small chat between Tom and Priya in which Tom moves twice (Lisbon, then Madrid), and the ways an app asks where he
lives now: the data of tests/e2e/api/test_current_fact_first.py and tests/e2e/test_day_one_adopter.py."""

from __future__ import annotations

from typing import Any

TOM_AND_PRIYA: dict[str, Any] = {
    "type": "conversation",
    "id": "tom-priya",
    "sessions": [
        {
            "id": "s1",
            "started_at": "2024-03-04T18:00:00Z",
            "turns": [
                {"speaker": "Tom", "id": "s1-1", "text": "Hi Priya! I moved to Lisbon two weeks ago."},
                {"speaker": "Priya", "id": "s1-2", "text": "Congrats Tom! I'm building a bird feeder this weekend."},
                {"speaker": "Tom", "id": "s1-3", "text": "I started learning Portuguese with an app every morning."},
                {"speaker": "Priya", "id": "s1-4", "text": "My sister got a new puppy, a golden retriever."},
            ],
        },
        {
            "id": "s2",
            "started_at": "2024-06-10T18:00:00Z",
            "turns": [
                {"speaker": "Tom", "id": "s2-1", "text": "Big news: I moved from Lisbon to Madrid last month."},
                {"speaker": "Priya", "id": "s2-2", "text": "Wow, how is Madrid treating you?"},
                {"speaker": "Tom", "id": "s2-3", "text": "I ran a half marathon last week in 1 hour 52."},
                {"speaker": "Priya", "id": "s2-4", "text": "I finished the bird feeder, the sparrows love it."},
            ],
        },
    ],
}  # fmt: skip
WHERE_TOM_LIVES = [
    "Where does Tom live?",
    "Which city is Tom based in now?",
    "Where is Tom's home?",
    "What city does Tom call home these days?",
    "Where has Tom settled?",
    "In which town does Tom reside?",
]
