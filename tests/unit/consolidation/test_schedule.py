"""The beat schedule queues the every-space consolidation task on the cpu queue."""

from __future__ import annotations

import workers.tasks.consolidate  # noqa: F401  (registers the tasks)
from workers.celery_app import CPU_QUEUE, app


def test_beat_schedule_and_tasks() -> None:
    entry = app.conf.beat_schedule["consolidate-every-space"]
    assert entry["task"] == "engram.consolidate.all" and entry["options"]["queue"] == CPU_QUEUE
    assert float(entry["schedule"]) > 0
    assert {"engram.consolidate.all", "engram.consolidate.space"} <= set(app.tasks)
