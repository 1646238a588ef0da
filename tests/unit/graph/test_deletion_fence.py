"""What a write obeys of the deletions on record (graph/deletion_fence.py), and what a part withholds for them
(graph/memory_writer.py `WritePart.without`)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest
from neo4j.time import DateTime

from engram.models import Episode, Proposition, Source, SourceKind
from graph.deletion_fence import DeletionRunning, ScopeDeleted, Withheld, _obeyed
from graph.memory_writer import MemoryBatch, plan_parts

SPACE = "s/0123456789abcdef"
SUBMITTED = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def _row(started: datetime, whole: bool = False, finished: datetime | None = None, **scope: Any) -> dict[str, Any]:
    return {
        "id": "d1",
        "whole": whole,
        "scope": json.dumps(scope.pop("labels")) if "labels" in scope else None,
        "episode_ids": scope.get("episode_ids", []),
        "source_ids": scope.get("source_ids", []),
        "started_at": DateTime.from_native(started),
        "finished_at": DateTime.from_native(finished) if finished else None,
    }


def test_a_whole_deletion_begun_after_the_work_stops_it() -> None:
    with pytest.raises(ScopeDeleted):
        _obeyed(SPACE, [_row(SUBMITTED + timedelta(seconds=1), whole=True)], SUBMITTED, SUBMITTED)


def test_work_begun_while_a_deletion_runs_waits_then_is_a_new_life() -> None:
    started = SUBMITTED - timedelta(seconds=1)
    with pytest.raises(DeletionRunning):
        _obeyed(SPACE, [_row(started, whole=True)], SUBMITTED, SUBMITTED + timedelta(seconds=5))
    done = _row(started, whole=True, finished=SUBMITTED + timedelta(seconds=3))
    assert not _obeyed(SPACE, [done], SUBMITTED, SUBMITTED + timedelta(seconds=5))


def test_a_deletion_whose_process_died_stops_holding_work_back() -> None:
    started = SUBMITTED - timedelta(seconds=1)
    assert not _obeyed(SPACE, [_row(started, whole=True)], SUBMITTED, SUBMITTED + timedelta(hours=1))


def test_episode_level_deletions_are_withheld_not_stopped() -> None:
    later = SUBMITTED + timedelta(seconds=1)
    rows = [_row(later, labels={"session": "s1"}), _row(later, source_ids=["chat"], episode_ids=["t9"])]
    withheld = _obeyed(SPACE, rows, SUBMITTED, later)
    assert withheld.scopes == ({"session": "s1"},)
    assert withheld.source_refs == {"chat"} and withheld.episode_refs == {"t9"}


def _batch() -> MemoryBatch:
    sources = [
        Source(space=SPACE, id=f"src-{s}", kind=SourceKind.CONVERSATION, external_id=f"chat/{s}", session=s)
        for s in ("s1", "s2")
    ]
    episodes = [
        Episode(space=SPACE, id=f"{s}-e{n}", source_id=f"src-{s}", seq=n, text=f"{s} {n}", external_id=f"t{n}",
                session=s, metadata={"topic": "health" if n == 1 else "food"})
        for s in ("s1", "s2") for n in range(3)
    ]  # fmt: skip
    facts = [
        Proposition(space=SPACE, id=f"f-{e.id}", text=e.text, episode_ids=[e.id], concept_keys=["k"]) for e in episodes
    ]
    shared = Proposition(space=SPACE, id="f-both", text="both", episode_ids=["s1-e2", "s2-e2"], concept_keys=["k"])
    vectors = np.zeros((len(episodes), 4), dtype=np.float32)
    return MemoryBatch(
        space=SPACE, sources=sources, episodes=episodes, episode_vectors=vectors, concepts=[],
        concept_vectors=np.zeros((0, 4), dtype=np.float32), propositions=[*facts, shared],
        proposition_vectors=np.zeros((len(facts) + 1, 4), dtype=np.float32), intents=[],
        intent_vectors=np.zeros((0, 4), dtype=np.float32), prescriptions=[],
        prescription_vectors=np.zeros((0, 4), dtype=np.float32),
    )  # fmt: skip


@pytest.mark.parametrize(
    "withheld",
    [
        Withheld(scopes=({"session": "s1"},)),
        Withheld(source_refs=frozenset({"chat/s1"})),
        Withheld(source_refs=frozenset({"src-s1"})),
        Withheld(episode_refs=frozenset({"s1-e0", "chat/s1/t1", "s1-e2"})),
    ],
)
def test_a_part_withholds_a_session_whatever_names_it(withheld: Withheld) -> None:
    (part,) = plan_parts(_batch())
    kept = part.without(withheld)
    assert [e["id"] for e in kept.episodes] == ["s2-e0", "s2-e1", "s2-e2"]
    # what a withheld episode proves goes, even when another episode proves it too: the deletion wins
    assert sorted(p["id"] for p in kept.propositions) == ["f-s2-e0", "f-s2-e1", "f-s2-e2"]
    assert {m["proposition_id"] for m in kept.mentions} == {p["id"] for p in kept.propositions}
    assert all("s1" not in pair["prev"] and "s1" not in pair["next"] for pair in kept.sequence)


def test_a_metadata_match_withholds_only_its_episodes() -> None:
    (part,) = plan_parts(_batch())
    kept = part.without(Withheld(scopes=({"meta_topic": "health"},)))
    assert [e["id"] for e in kept.episodes] == ["s1-e0", "s1-e2", "s2-e0", "s2-e2"]
    assert len(kept.sources) == 2


def test_nothing_withheld_is_the_part_itself() -> None:
    (part,) = plan_parts(_batch())
    assert part.without(Withheld()) is part
