"""Participants: when the query names someone who speaks in the top items, the episodes closest to the query's
content said by them ("participant") and by anyone ("content": a question's premise may credit the wrong person).
When it means the asker or the addressee by a pronoun ("my cat", "you recommended"), the episodes closest to the
query said by them ("participant"): in a user's chat with an assistant, the user's facts are in the user's turns,
and the assistant's long replies on the same topic would otherwise outnumber them."""

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
    named: list[str]
    meant: list[str]
    content: str
    lists: dict[str, list[Hit]]


def search_participants(run: RecallRun, named: list[str], meant: list[str], embed: EmbedFn) -> ParticipantSearch:
    """`named`: the speakers the query names (their names are taken out of what is searched); `meant`: those it means
    by a pronoun (the asker, the addressee)."""
    participants = named + meant
    content = without_names(run.request.query, named)
    if not content:
        return ParticipantSearch(named, meant, content, {})
    k = run.tuning.participant_k
    if not named:
        # Nothing was taken out: what anyone said closest to the query is the seeds' episode search already.
        lists = {"participant": run.searcher.dense("episodes", run.vector, k, participants)}
        return ParticipantSearch(named, meant, content, lists)
    vector = vector_param(embed([content])[0])
    own = run.threads.searches.submit(run.searcher.dense, "episodes", vector, k, participants)
    anyone = run.searcher.dense("episodes", vector, k)
    lists = {"participant": own.result(), "content": anyone}
    return ParticipantSearch(named, meant, content, lists)


def join_participants(run: RecallRun, search: ParticipantSearch) -> int:
    """Merges the participant searches' knowledge; returns how many episode hits they had."""
    before = len(run.candidates)
    for name, hits in search.lists.items():
        merge_episode_hits(name, hits, run.types, run.candidates, run.vote)
    detail = {
        "named": search.named,
        "meant": search.meant,
        "content": search.content,
        "hits": {name: len(hits) for name, hits in search.lists.items()},
        "new": len(run.candidates) - before,
    }
    run.trace.append(TraceStep(step="participants", detail=detail))
    return sum(len(hits) for hits in search.lists.values())
