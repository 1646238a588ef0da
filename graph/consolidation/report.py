"""What a consolidation run did: figures of the space before and after, and counts per job."""

from __future__ import annotations

from datetime import datetime

import neo4j
from pydantic import BaseModel

from graph.cypher import load


class GraphFigures(BaseModel):
    active_propositions: int
    superseded_propositions: int
    concepts: int
    association_edges: int
    alias_edges: int
    supersedes_edges: int
    active_intents: int
    dimensions: int
    edges: int  # every relationship of the space


class ConsolidationReport(BaseModel):
    space: str
    started_at: datetime
    seconds: float
    before: GraphFigures
    after: GraphFigures
    duplicate_candidates: int  # pairs sharing a concept above the similarity threshold, judged
    duplicates_found: int  # merged + updated
    duplicates_merged: int  # the same fact restated: one survivor
    facts_updated: int  # the same fact with a newer value
    facts_revised: int = 0  # a later statement about the same subject's same attribute (revisions.py)
    conflicts_found: int  # (subject, predicate) groups with incompatible objects
    conflicts_resolved: int  # claims superseded by a more reliable one
    late_proofs_carried: int  # proofs that reached replaced propositions after they were replaced
    aliases: int  # SAME_AS edges after the run
    aliases_added: int
    intents_merged: int
    prescriptions_repointed: int
    dimensions: int
    own_indexes: bool = False  # the space is searched through indexes of its own (space_indexes)
    step_seconds: dict[str, float]

    @property
    def changed_knowledge(self) -> bool:
        """Whether the run superseded, merged or linked anything (a second run right after changes nothing)."""
        return bool(
            self.duplicates_found
            or self.facts_revised
            or self.conflicts_resolved
            or self.late_proofs_carried
            or self.aliases_added
            or self.intents_merged
            or self.prescriptions_repointed
        )


def figures(driver: neo4j.Driver, database: str, space: str) -> GraphFigures:
    records, _, _ = driver.execute_query(
        load("consolidate/figures"), space=space, database_=database, routing_=neo4j.RoutingControl.READ
    )
    return GraphFigures.model_validate(records[0].data())
