"""The participant searches: what the speakers a question names or means said, closest to its content."""

from __future__ import annotations

from dataclasses import dataclass

from graph.params import vector_param
from graph.recall.hits import Hit
from graph.recall.query import without_names
from graph.recall.run import RecallRun


@dataclass(frozen=True)
class ParticipantSearch:
    named: list[str]
    meant: list[str]
    content: str
    lists: dict[str, list[Hit]]


def search_participants(run: RecallRun, named: list[str], meant: list[str]) -> ParticipantSearch:
    """`named`: the speakers the query names (their names are taken out of what is searched); `meant`: those it means
    by a pronoun (the asker, the addressee)."""
    participants = named + meant
    content = without_names(run.request.query, named)
    if not content:
        return ParticipantSearch(named, meant, content, {})
    k = run.config.evidence.participant_k
    if not named:
        # Nothing was taken out: what anyone said closest to the query is the seeds' episode search already.
        lists = {"participant": run.searcher.dense("episodes", run.vector, k, participants)}
        return ParticipantSearch(named, meant, content, lists)
    vector = vector_param(run.tools.embed([content])[0])
    own = run.threads.searches.submit(run.searcher.dense, "episodes", vector, k, participants)
    anyone = run.searcher.dense("episodes", vector, k)
    lists = {"participant": own.result(), "content": anyone}
    return ParticipantSearch(named, meant, content, lists)
