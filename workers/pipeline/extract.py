"""Stage 2: episodes -> propositions with assimilated concept keys; trajectories -> intents and whole
prescriptions. Deterministic ids make a re-run produce the same nodes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

from engram.extraction.assimilation import Assimilator, SchemaKey
from engram.extraction.base import DraftProposition, EpisodeContext, PropositionExtractor
from engram.extraction.trajectory import StepView, whole_procedure
from engram.facts.slots import SEED_SLOTS, SlotNamer
from engram.ids import normalize_text, stable_id
from engram.models import Concept, Episode, FactAspect, Intent, Prescription, Proposition, SourceKind
from workers.pipeline.standardize import StandardizedBatch

EmbedFn = Callable[[Sequence[str]], NDArray[np.float32]]
# Consecutive subgoals less similar than this start a new segment (only near-paraphrases continue one).
SEGMENT_SIMILARITY = 0.75


class ExtractedKnowledge(BaseModel):
    propositions: list[Proposition]
    new_concepts: list[Concept]  # aligned with the `concepts` array of embeddings
    intents: list[Intent]
    prescriptions: list[Prescription]
    assimilation: dict[str, int]  # how phrases met the schema: exact / normalized / embedding / new


def episode_contexts(batch: StandardizedBatch) -> list[EpisodeContext]:
    kinds = {s.id: s.kind for s in batch.sources}
    # A conversation's title names the chat, not the subject of every turn: only a document's title is one.
    titles = {s.id: s.title for s in batch.sources if s.kind is SourceKind.DOCUMENT}
    contexts = []
    for episode in batch.episodes:
        if kinds[episode.source_id] is SourceKind.TRAJECTORY:
            continue
        speakers = batch.participants.get(episode.source_id, [])
        others = [s for s in speakers if s != episode.speaker]
        contexts.append(
            EpisodeContext(
                episode_id=episode.id,
                text=episode.observation or episode.text,
                speaker=episode.speaker,
                addressee=others[0] if len(others) == 1 else "",
                occurred_at=episode.occurred_at,
                image_caption=episode.image_caption,
                participants=frozenset(speakers),
                space=batch.space,
                title=titles.get(episode.source_id, ""),
                user=episode.user or "",
            )
        )
    return contexts


def extract_propositions(
    batch: StandardizedBatch, extractor: PropositionExtractor, assimilator: Assimilator, slots: SlotNamer | None = None
) -> tuple[list[Proposition], dict[str, int]]:
    drafts = extractor.extract(episode_contexts(batch))
    slot_of = dict(zip(*_frames_and_slots(drafts, slots), strict=True))
    keys = assimilator.assimilate([phrase for d in drafts for phrase in d.concept_phrases])
    how: dict[str, int] = {}
    for assimilated in keys.values():
        how[assimilated.how] = how.get(assimilated.how, 0) + 1
    merged: dict[str, Proposition] = {}
    for draft in drafts:
        prop_id = stable_id("prop", batch.space, normalize_text(draft.text))
        concept_keys = list(dict.fromkeys(keys[p].key for p in draft.concept_phrases if p in keys))
        if prop_id in merged:  # the same statement proven by another episode
            known = merged[prop_id]
            known.episode_ids = list(dict.fromkeys(known.episode_ids + draft.episode_ids))
            known.concept_keys = list(dict.fromkeys(known.concept_keys + concept_keys))
            continue
        merged[prop_id] = Proposition(
            space=batch.space,
            id=prop_id,
            text=draft.text,
            subject=draft.subject,
            predicate=draft.predicate,
            object=draft.object,
            slot=slot_of.get(draft.frame, ""),
            value_type=draft.value_type,
            aspect=_aspect(draft, slot_of.get(draft.frame, "")),
            polarity=draft.polarity,
            ends=draft.ends,
            adds=draft.adds,
            renews=draft.renews,
            frame=draft.frame,
            valid_from=draft.valid_from,
            confidence=draft.confidence,
            importance=draft.importance,
            episode_ids=draft.episode_ids,
            concept_keys=concept_keys,
        )
    return list(merged.values()), how


def _aspect(draft: DraftProposition, slot: str) -> FactAspect | None:
    """State or event; a fact that fills a seed slot sets a state even when told as an event ("I moved to Lisbon",
    "I started at a shipping firm")."""
    if not draft.frame:
        return None
    return FactAspect.STATE if not draft.event or slot in SEED_SLOTS else FactAspect.EVENT


def _frames_and_slots(drafts: Sequence[DraftProposition], slots: SlotNamer | None) -> tuple[list[str], list[str]]:
    frames = sorted({d.frame for d in drafts if d.frame})
    if slots is None:
        return frames, frames
    return frames, slots.name(frames)


def extract_procedures(
    batch: StandardizedBatch, embed: EmbedFn, threshold: float = SEGMENT_SIMILARITY
) -> tuple[list[Intent], list[Prescription]]:
    """One prescription per trajectory, solving its task, with its subgoal segments as ordered parts."""
    episodes: dict[str, Episode] = {e.id: e for e in batch.episodes}
    intents: dict[str, Intent] = {}
    prescriptions: list[Prescription] = []
    for plan in batch.trajectories:
        steps = [episodes[i] for i in plan.episode_ids]
        views = [StepView(e.id, e.action, e.subgoal, e.reward, e.observation) for e in steps]
        vectors = embed([e.subgoal or plan.task for e in steps])
        procedure = whole_procedure(plan.task, views, vectors, threshold)
        intent = Intent(space=batch.space, id=stable_id("int", batch.space, normalize_text(plan.task)), text=plan.task)
        intents.setdefault(intent.id, intent)
        prescriptions.append(
            Prescription(
                space=batch.space,
                # The id the first segment had when segments were procedures of their own: a re-ingest of a
                # trajectory written then replaces it in place (ingest/retire_replaced_prescriptions takes the rest).
                id=stable_id("pre", plan.source_id, "0"),
                text=procedure.prescription_text(),
                terms=procedure.prescription_terms(),
                intent_id=intent.id,
                steps=[s.action for s in procedure.steps],
                part_intents=procedure.part_intents,
                part_ends=procedure.part_ends,
                return_score=procedure.return_score,
                episode_ids=[s.episode_id for s in procedure.steps],
            )
        )
    return list(intents.values()), prescriptions


def extract(
    batch: StandardizedBatch, extractor: PropositionExtractor, schema: list[SchemaKey], embed: EmbedFn
) -> tuple[ExtractedKnowledge, NDArray[np.float32]]:
    """Knowledge of the batch, and the embeddings of the concept keys it accommodated."""
    assimilator = Assimilator(schema, embed)
    propositions, how = extract_propositions(batch, extractor, assimilator, SlotNamer(embed))
    intents, prescriptions = extract_procedures(batch, embed)
    new = list(assimilator.new_keys.values())
    concepts = [
        Concept(space=batch.space, id=stable_id("con", batch.space, k.key), key=k.key, name=k.name) for k in new
    ]
    vectors = np.stack([k.embedding for k in new]) if new else np.zeros((0, 384), np.float32)  # type: ignore[misc]
    knowledge = ExtractedKnowledge(
        propositions=propositions, new_concepts=concepts, intents=intents, prescriptions=prescriptions, assimilation=how
    )
    return knowledge, vectors.astype(np.float32)
