"""The order a deletion keeps (workers/scope_deletion.py), on in-memory stand-ins for the record, the cascade, the job
stops and the Redis clean-up: recorded before anything goes, jobs stopped with the deletion's start, the text dropped
after the records, and the record finished even when a step fails. The stores themselves are tested end to end
(tests/e2e/api/test_deletion_races.py, tests/e2e/test_forget.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from engram.scope import ScopeFilter
from graph.cascade_delete import ForgetResult
from graph.deletion_fence import DeletionScope, RecordedDeletion
from graph.scoped import Resolved
from workers.scope_deletion import ScopeDeletion, _memory_space_of

STARTED = datetime(2026, 1, 2, tzinfo=UTC)


def _result(episodes: Sequence[str] = (), knowledge: Sequence[str] = ()) -> ForgetResult:
    return ForgetResult(
        episodes=list(episodes), knowledge=list(knowledge), sources=[], intents=[], concepts_removed=len(episodes)
    )


class Events:
    def __init__(self) -> None:
        self.seen: list[tuple[Any, ...]] = []
        self.scopes: list[DeletionScope] = []

    def __call__(self, *event: Any) -> None:
        self.seen.append(event)

    def names(self) -> list[str]:
        return [e[0] for e in self.seen]


class Log:
    def __init__(self, events: Events, whole: Sequence[RecordedDeletion] = ()) -> None:
        self.events, self.whole = events, list(whole)

    def begin(self, scope: DeletionScope) -> tuple[str, datetime]:
        self.events.scopes.append(scope)
        self.events("begin")
        return "d1", STARTED

    def finish(self, deletion_id: str) -> None:
        self.events("finish", deletion_id)

    def record_stopped(self, deletion_id: str, job_ids: list[str]) -> None:
        self.events("record_stopped", deletion_id, tuple(job_ids))

    def whole_deletions(self) -> list[RecordedDeletion]:
        return self.whole

    def stopped_by(self, space: str, job_id: str) -> datetime | None:
        return STARTED if job_id == "j-stopped" else None


class Cascade:
    def __init__(self, events: Events) -> None:
        self.events = events

    def forget_episodes(self, space: str, ids: Sequence[str]) -> ForgetResult:
        self.events("forget_episodes", tuple(ids))
        return _result(episodes=ids)

    def forget_sources(self, space: str, ids: Sequence[str]) -> ForgetResult:
        self.events("forget_sources", tuple(ids))
        return _result(episodes=[f"{i}-e" for i in ids])

    def forget_knowledge(self, space: str, ids: Sequence[str]) -> ForgetResult:
        self.events("forget_knowledge", tuple(ids))
        return _result(knowledge=[i for i in ids if i.startswith("p")])


class Scoped:
    def __init__(self, events: Events, resolved: Resolved | None = None) -> None:
        self.events, self.resolved = events, resolved or Resolved()

    def counts(self, space: str) -> dict[str, int]:
        self.events("counts", space)
        return {"episodes": 2, "knowledge": 3, "concepts": 1}

    def resolve(self, space: str, sources: Sequence[str], episodes: Sequence[str]) -> Resolved:
        return self.resolved

    def matching_episodes(self, space: str, scope: ScopeFilter) -> list[str]:
        self.events("matching", scope.session)
        return ["e1", "e2"]


class Text:
    def __init__(self, events: Events) -> None:
        self.events = events

    def deleted(self, memory_space: str, with_users: bool) -> None:
        self.events("text_deleted", memory_space, with_users)


def _service(events: Events, scoped: Scoped | None = None, log: Log | None = None, fail: bool = False) -> ScopeDeletion:
    def stop_jobs(space: str, with_users: bool, before: datetime) -> list[str]:
        events("stop_jobs", space, with_users, before)
        return ["j1"]

    def erase(space: str) -> None:
        if fail:
            raise RuntimeError("Neo4j went away")
        events("erase", space)

    return ScopeDeletion(
        log=log or Log(events),  # type: ignore[arg-type]
        forgetter=Cascade(events),  # type: ignore[arg-type]
        scoped=scoped or Scoped(events),  # type: ignore[arg-type]
        text=Text(events),  # type: ignore[arg-type]
        stop_jobs=stop_jobs,
        erase_space=erase,
    )


def test_a_whole_space_is_recorded_then_its_jobs_stopped_its_records_and_text_deleted_then_finished() -> None:
    events = Events()
    erased = _service(events).whole("acme", ["acme/u1", "acme/u2"], with_users=True)
    assert events.names() == [
        "begin", "stop_jobs", "record_stopped", "counts", "counts", "counts", "erase", "erase", "erase",
        "text_deleted", "finish",
    ]  # fmt: skip
    assert ("stop_jobs", "acme", True, STARTED) in events.seen  # jobs submitted before the deletion began
    assert ("record_stopped", "d1", ("j1",)) in events.seen
    assert events.scopes == [DeletionScope("acme", whole=True, with_users=True)]
    assert (erased.episodes, erased.knowledge, erased.concepts, erased.users) == (6, 9, 3, 2)
    assert erased.stopped_jobs == ["j1"]


def test_a_deletion_that_fails_midway_still_finishes_its_record_and_leaves_the_text_for_a_rerun() -> None:
    events = Events()
    with pytest.raises(RuntimeError):
        _service(events, fail=True).whole("acme/u1", [], with_users=False)
    assert events.names()[-1] == "finish"
    assert "text_deleted" not in events.names()


def test_a_forget_by_filter_is_recorded_around_the_cascade() -> None:
    events = Events()
    result = _service(events).matching("acme", ScopeFilter(session="s1"))
    assert events.names() == ["begin", "matching", "forget_episodes", "finish"]
    assert events.scopes == [DeletionScope("acme", scope={"session": "s1"})]
    assert result.episodes == ["e1", "e2"]


def test_named_ids_record_the_refs_as_asked_and_as_resolved_and_knowledge_goes_outside_the_record() -> None:
    events = Events()
    resolved = Resolved(source_ids=["src-1"], episode_ids=["ep-9"], not_found=["gone"])
    named = _service(events, Scoped(events, resolved)).named("acme", ["chat-1"], ["s1-3", "gone"], ["p1", "q2"])
    assert events.names() == ["begin", "forget_sources", "forget_episodes", "finish", "forget_knowledge"]
    assert events.scopes == [
        DeletionScope("acme", source_ids=("chat-1", "src-1"), episode_ids=("s1-3", "gone", "ep-9"))
    ]
    assert [r.episodes for r in named.results] == [["src-1-e"], ["ep-9"], []]
    assert named.not_found == ["gone", "q2"]  # a ref that named nothing, and a knowledge id not removed


def test_an_ambiguous_episode_id_forgets_nothing_and_records_nothing() -> None:
    events = Events()
    resolved = Resolved(source_ids=["src-1"], ambiguous=["s1-3"])
    named = _service(events, Scoped(events, resolved)).named("acme", ["chat-1"], ["s1-3"], ["p1"])
    assert named.ambiguous == ["s1-3"] and named.results == []
    assert events.seen == []


def test_knowledge_alone_is_no_recorded_deletion() -> None:
    events = Events()
    named = _service(events).named("acme", [], [], ["p1"])
    assert events.names() == ["forget_knowledge"]
    assert [r.knowledge for r in named.results] == [["p1"]]


def test_the_sweep_stops_the_jobs_and_drops_the_text_of_each_whole_deletion_on_record() -> None:
    events = Events()
    log = Log(events, [RecordedDeletion("acme", True, STARTED), RecordedDeletion("beta/u1", False, STARTED)])
    assert _service(events, log=log).sweep() == 2
    assert [e for e in events.seen if e[0] == "text_deleted"] == [
        ("text_deleted", "acme", True),
        ("text_deleted", "beta/u1", False),
    ]


def test_a_job_a_deletion_stopped_is_told_so() -> None:
    service = _service(Events())
    assert "was stopped and removed" in service.gone_job_message("acme", "j-stopped")
    assert service.gone_job_message("acme", "j-other") == "no job 'j-other' in this space"


def test_the_space_a_redis_key_names() -> None:
    assert _memory_space_of("engram:keys:acme/u1:concept:3") == "acme/u1"
    assert _memory_space_of("engram:vectors:minilm:acme/u1") == "acme/u1"
