"""Participants: when the query names someone who speaks in the top items, the episodes closest to the query's
content said by them ("participant") and by anyone ("content": a question's premise may credit the wrong person).
When it means the asker or the addressee by a pronoun ("my cat", "you recommended"), the episodes closest to the
query said by them ("participant"): in a user's chat with an assistant, the user's facts are in the user's turns,
and the assistant's long replies on the same topic would otherwise outnumber them."""

from __future__ import annotations

from graph.recall.candidates import merge_episode_hits
from graph.recall.models import MemoryType
from graph.recall.participant_search import ParticipantSearch, search_participants
from graph.recall.query import named_participants, persons_meant
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step


class Participants(Step[ParticipantSearch]):
    name = "participants"

    def runs(self, run: RecallRun) -> bool:
        return bool(run.config.evidence.participant_k) and MemoryType.SEMANTIC in run.types

    def find(self, run: RecallRun) -> ParticipantSearch | None:
        request = run.request
        named = named_participants(request.query, {p.speaker for item in run.ranked for p in item.provenance})
        meant = [p for p in persons_meant(request.query, request.asker, request.addressee) if p not in named]
        return search_participants(run, named, meant) if named or meant else None

    def apply(self, run: RecallRun, found: ParticipantSearch | None) -> None:
        if found is not None:
            join_participants(run, found)


def join_participants(run: RecallRun, search: ParticipantSearch) -> None:
    """Merges the participant searches' knowledge (lists "participant" and "content")."""
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
    run.trace.add("participants", **detail)
    run.unranked_evidence += sum(len(hits) for hits in search.lists.values())
