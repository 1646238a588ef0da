"""Stage 1: raw records -> Sources and Episodes (conversation turns, document passages, trajectory steps)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel

from engram.extraction.keyphrases import title_key
from engram.formats.passages import split_passages
from engram.formats.records import ConversationRecord, DocumentRecord, Record, TrajectoryRecord
from engram.ids import stable_id
from engram.models import Episode, Source, SourceKind


class TrajectoryPlan(BaseModel):
    source_id: str
    task: str
    episode_ids: list[str]


class StandardizedBatch(BaseModel):
    space: str
    sources: list[Source]
    episodes: list[Episode]
    participants: dict[str, list[str]]  # source id -> speakers
    trajectories: list[TrajectoryPlan]


def turn_text(speaker: str, text: str, caption: str) -> str:
    shown = f"{speaker}: {text}"
    return f"{shown} [shares an image: {caption}]" if caption else shown


def passage_text(title: str, passage: str) -> str:
    """A passage read under its document's title, as a turn is read with its speaker: searching the passage finds
    what its document is about even where the passage never names it."""
    return f"{title}\n{passage}" if title else passage


def _scope(record: Record) -> dict[str, Any]:
    """The scope labels a record's source and episodes carry."""
    return {"user": record.user, "agent": record.agent, "session": record.session, "metadata": record.metadata}


def _conversation(space: str, record: ConversationRecord, batch: StandardizedBatch) -> None:
    for session in record.sessions:
        source = Source(
            **_scope(record),
            space=space,
            id=stable_id("src", space, "conversation", record.id, session.id),
            kind=SourceKind.CONVERSATION,
            external_id=f"{record.id}/{session.id}",
            title=record.title,
            created_at=session.started_at,
        )
        batch.sources.append(source)
        speakers = sorted({t.speaker for t in session.turns})
        batch.participants[source.id] = speakers
        for seq, turn in enumerate(session.turns):
            external = turn.id or str(seq)
            batch.episodes.append(
                Episode(
                    **{**_scope(record), "metadata": {**record.metadata, **turn.metadata}},
                    space=space,
                    id=stable_id("ep", source.id, external),
                    source_id=source.id,
                    seq=seq,
                    external_id=external,
                    speaker=turn.speaker,
                    text=turn_text(turn.speaker, turn.text, turn.image_caption),
                    occurred_at=turn.timestamp or session.started_at,
                    observation=turn.text,
                    image_caption=turn.image_caption,
                )
            )


def _add_source(
    batch: StandardizedBatch,
    kind: SourceKind,
    record: DocumentRecord | TrajectoryRecord,
    title: str,
    created_at: datetime | None,
) -> Source:
    """A document or trajectory source (one per record, no speakers)."""
    source = Source(
        **_scope(record),
        space=batch.space,
        id=stable_id("src", batch.space, kind.value, record.id),
        kind=kind,
        external_id=record.id,
        title=title,
        created_at=created_at,
        # A conversation's or a trajectory's title names the record, not a subject it is about.
        title_key=(title_key(title) or None) if kind is SourceKind.DOCUMENT else None,
    )
    batch.sources.append(source)
    batch.participants[source.id] = []
    return source


def _document(space: str, record: DocumentRecord, batch: StandardizedBatch) -> None:
    source = _add_source(batch, SourceKind.DOCUMENT, record, record.title, record.created_at)
    for seq, passage in enumerate(split_passages(record.text)):
        batch.episodes.append(
            Episode(
                **_scope(record),
                space=space,
                id=stable_id("ep", source.id, str(seq)),
                source_id=source.id,
                seq=seq,
                external_id=f"passage-{seq}",
                text=passage_text(record.title, passage),
                occurred_at=record.created_at,
                observation=passage,
            )
        )


def _trajectory(space: str, record: TrajectoryRecord, batch: StandardizedBatch) -> None:
    source = _add_source(batch, SourceKind.TRAJECTORY, record, record.task, record.started_at)
    ids = []
    for seq, step in enumerate(record.steps):
        text = (
            f"Observation: {step.observation}\nAction: {step.action}" if step.observation else f"Action: {step.action}"
        )
        episode = Episode(
            **_scope(record),
            space=space,
            id=stable_id("ep", source.id, str(seq)),
            source_id=source.id,
            seq=seq,
            external_id=f"step-{seq}",
            text=text,
            occurred_at=step.timestamp or record.started_at,
            observation=step.observation,
            action=step.action,
            reward=step.reward,
            subgoal=step.subgoal,
        )
        batch.episodes.append(episode)
        ids.append(episode.id)
    batch.trajectories.append(TrajectoryPlan(source_id=source.id, task=record.task, episode_ids=ids))


def standardize(space: str, records: list[Record]) -> StandardizedBatch:
    batch = StandardizedBatch(space=space, sources=[], episodes=[], participants={}, trajectories=[])
    for record in records:
        if isinstance(record, ConversationRecord):
            _conversation(space, record, batch)
        elif isinstance(record, DocumentRecord):
            _document(space, record, batch)
        else:
            _trajectory(space, record, batch)
    return batch
