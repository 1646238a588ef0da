"""Participants: when the query names someone who speaks in the top items, the episodes closest to the query's
content said by them ("participant") and by anyone ("content": a question's premise may credit the wrong person)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from graph.params import vector_param
from graph.recall.candidates import merge_episode_hits
from graph.recall.models import TraceStep
from graph.recall.participants import without_names
from graph.recall.run import RecallRun
from graph.recall.search import Hit

EmbedFn = Callable[[Sequence[str]], NDArray[np.float32]]


@dataclass(frozen=True)
class ParticipantSearch:
    participants: list[str]
    content: str
    lists: dict[str, list[Hit]]


def search_participants(run: RecallRun, participants: list[str], embed: EmbedFn) -> ParticipantSearch:
    content = without_names(run.request.query, participants)
    if not content:
        return ParticipantSearch(participants, content, {})
    vector = vector_param(embed([content])[0])
    k = run.tuning.participant_k
    own = run.threads.searches.submit(run.searcher.dense, "episodes", vector, k, participants)
    anyone = run.searcher.dense("episodes", vector, k)
    lists = {"participant": own.result(), "content": anyone}
    return ParticipantSearch(participants, content, lists)


def join_participants(run: RecallRun, search: ParticipantSearch) -> int:
    """Merges the participant searches' knowledge; returns how many episode hits they had."""
    before = len(run.candidates)
    for name, hits in search.lists.items():
        merge_episode_hits(name, hits, run.types, run.candidates, run.vote)
    detail = {
        "named": search.participants,
        "content": search.content,
        "hits": {name: len(hits) for name, hits in search.lists.items()},
        "new": len(run.candidates) - before,
    }
    run.trace.append(TraceStep(step="participants", detail=detail))
    return sum(len(hits) for hits in search.lists.values())
