"""Stage 1: raw records -> Sources and Episodes (conversation turns, document passages, trajectory steps)."""

from __future__ import annotations

import re
from datetime import datetime

from pydantic import BaseModel

from engram.extraction.keyphrases import title_key
from engram.formats.records import ConversationRecord, DocumentRecord, Record, TrajectoryRecord
from engram.ids import stable_id
from engram.models import Episode, Source, SourceKind

PASSAGE_WORDS = 150
# A passage's bound in characters too: a text without spaces (a URL list, base64) has no words to split on.
PASSAGE_MAX_CHARS = 2_000


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


def _bounded(piece: str, max_words: int) -> list[str]:
    """A piece cut on word boundaries into runs of at most max_words words and PASSAGE_MAX_CHARS characters (a
    word longer than that is cut inside): a paragraph with no sentence end would otherwise be one passage, one
    episode and one proposition however long it is."""
    runs: list[str] = []
    words: list[str] = []
    chars = 0
    for word in piece.split():
        for start in range(0, len(word), PASSAGE_MAX_CHARS):
            part = word[start : start + PASSAGE_MAX_CHARS]
            if words and (len(words) == max_words or chars + 1 + len(part) > PASSAGE_MAX_CHARS):
                runs.append(" ".join(words))
                words, chars = [], -1
            words.append(part)
            chars += 1 + len(part)
    if words:
        runs.append(" ".join(words))
    return runs


def split_passages(text: str, max_words: int = PASSAGE_WORDS) -> list[str]:
    """Paragraphs packed into passages of at most ~max_words words (long paragraphs split on sentences, sentences
    still too long on words), none longer than PASSAGE_MAX_CHARS."""
    pieces: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        paragraph = " ".join(paragraph.split())
        if not paragraph:
            continue
        if len(paragraph.split()) <= max_words and len(paragraph) <= PASSAGE_MAX_CHARS:
            pieces.append(paragraph)
        else:
            for sentence in re.split(r"(?<=[.!?])\s+", paragraph):
                pieces.extend(_bounded(sentence, max_words))
    passages: list[str] = []
    for piece in pieces:
        if (
            passages
            and len(passages[-1].split()) + len(piece.split()) <= max_words
            and len(passages[-1]) + 1 + len(piece) <= PASSAGE_MAX_CHARS
        ):
            passages[-1] = f"{passages[-1]} {piece}"
        else:
            passages.append(piece)
    return passages


def turn_text(speaker: str, text: str, caption: str) -> str:
    shown = f"{speaker}: {text}"
    return f"{shown} [shares an image: {caption}]" if caption else shown


def passage_text(title: str, passage: str) -> str:
    """A passage read under its document's title, as a turn is read with its speaker: searching the passage finds
    what its document is about even where the passage never names it."""
    return f"{title}\n{passage}" if title else passage


def _conversation(space: str, record: ConversationRecord, batch: StandardizedBatch) -> None:
    for session in record.sessions:
        source = Source(
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
    batch: StandardizedBatch, kind: SourceKind, record_id: str, title: str, created_at: datetime | None
) -> Source:
    """A document or trajectory source (one per record, no speakers)."""
    source = Source(
        space=batch.space,
        id=stable_id("src", batch.space, kind.value, record_id),
        kind=kind,
        external_id=record_id,
        title=title,
        created_at=created_at,
        # A conversation's or a trajectory's title names the record, not a subject it is about.
        title_key=(title_key(title) or None) if kind is SourceKind.DOCUMENT else None,
    )
    batch.sources.append(source)
    batch.participants[source.id] = []
    return source


def _document(space: str, record: DocumentRecord, batch: StandardizedBatch) -> None:
    source = _add_source(batch, SourceKind.DOCUMENT, record.id, record.title, record.created_at)
    for seq, passage in enumerate(split_passages(record.text)):
        batch.episodes.append(
            Episode(
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
    source = _add_source(batch, SourceKind.TRAJECTORY, record.id, record.task, record.started_at)
    ids = []
    for seq, step in enumerate(record.steps):
        text = (
            f"Observation: {step.observation}\nAction: {step.action}" if step.observation else f"Action: {step.action}"
        )
        episode = Episode(
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
