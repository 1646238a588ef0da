"""`consolidate(space)`: every periodic consolidation job of one space, in order, with a report.

1. proofs that reached replaced propositions late are carried on (a concurrent ingest of the same statement);
2. near-duplicate propositions are merged or updated (duplicates.py), and a later statement about the same
   subject's same attribute supersedes the earlier one (revisions.py);
3. concept aliases are linked (aliases.py), then
4. conflicting claims are resolved by reliability (conflicts.py; aliases count as the same object);
5. near-duplicate intents are merged (intents.py);
6. df/idf and every ASSOCIATED edge are recomputed (associations.py);
7. Graph Data Science: communities -> Dimensions, PageRank -> concept importance (graph/dimensions.py);
8. a space grown large gets vector and full-text indexes of its own (graph/space_indexes.py).

Every step is idempotent and decides on the state it reads, and each write re-checks that what it replaces is
still current: safe while ingestion runs. Two runs of one space must not overlap (the Celery task and the CLI
take a Redis lock per space, workers/tasks/consolidate.py).
"""

from __future__ import annotations

import math
import time
from datetime import UTC, datetime

import neo4j
from pydantic import BaseModel, Field

from engram.scope import validate_memory_space
from engram.settings import get_settings
from graph.consolidation.aliases import AliasRules, link_aliases
from graph.consolidation.associations import refresh_all
from graph.consolidation.conflicts import ReliabilityWeights, resolve_conflicts
from graph.consolidation.duplicates import (
    DuplicateJudge,
    DuplicateRules,
    OfflineJudge,
    carry_late_proofs,
    merge_duplicates,
)
from graph.consolidation.intents import INTENT_THRESHOLD, merge_intents
from graph.consolidation.report import ConsolidationReport, figures
from graph.consolidation.revisions import RevisionRules, link_revisions
from graph.dimensions import DIMENSION_THREADS, build_dimensions
from graph.driver import get_driver
from graph.space_indexes import DEDICATE_FROM, dedicate


class ConsolidationOptions(BaseModel):
    duplicate_threshold: float = DuplicateRules().threshold  # cosine of near-duplicate candidates
    intent_threshold: float = INTENT_THRESHOLD
    dimensions: bool = True  # run Graph Data Science (needs the GDS plugin)
    dimension_threads: int = Field(default=DIMENSION_THREADS, ge=1, le=4)  # GDS threads (OpenGDS allows 4 at most)
    topic_merges: bool = True  # merge "the same point in other words" (cosine >= topic_cosine), not only restatements
    fact_updates: bool = True  # the same fact with a new value supersedes the older one
    # A later statement about the same subject's same attribute supersedes the earlier one (revisions.py); default:
    # the worker's setting, ENGRAM_WORKER_REVISIONS (on).
    revisions: bool = Field(default_factory=lambda: get_settings().worker.revisions)
    associations: bool = True  # recompute df/idf and every ASSOCIATED edge of the space
    own_indexes_from: int = DEDICATE_FROM  # propositions or episodes from which a space gets its own


def consolidate(
    space: str,
    *,
    driver: neo4j.Driver | None = None,
    database: str | None = None,
    options: ConsolidationOptions | None = None,
    judge: DuplicateJudge | None = None,
    alias_rules: AliasRules | None = None,
    weights: ReliabilityWeights | None = None,
) -> ConsolidationReport:
    """Consolidate one memory space; returns before/after figures and what each job did."""
    validate_memory_space(space)
    driver = driver or get_driver()
    database = database or get_settings().neo4j.database
    options = options or ConsolidationOptions()
    started_at = datetime.now(UTC)
    start = mark = time.perf_counter()
    steps: dict[str, float] = {}

    def step(name: str) -> None:
        nonlocal mark
        now = time.perf_counter()
        steps[name] = round(now - mark, 3)
        mark = now

    before = figures(driver, database, space)
    late = carry_late_proofs(driver, database, space)
    step("carry_late_proofs")
    judge = judge or OfflineJudge(
        DuplicateRules(
            threshold=options.duplicate_threshold,
            topic_cosine=DuplicateRules().topic_cosine if options.topic_merges else math.inf,
            updates=options.fact_updates,
        )
    )
    duplicates = merge_duplicates(driver, database, space, judge, options.duplicate_threshold)
    step("duplicates")
    revisions = link_revisions(driver, database, space, RevisionRules(enabled=options.revisions))
    step("revisions")
    aliases = link_aliases(driver, database, space, alias_rules)
    step("aliases")
    conflicts = resolve_conflicts(driver, database, space, weights)
    step("conflicts")
    intents = merge_intents(driver, database, space, options.intent_threshold)
    step("intents")
    if options.associations:
        refresh_all(driver, database, space)
    step("associations")
    dimensions = 0
    if options.dimensions and figures(driver, database, space).association_edges:
        dimensions = build_dimensions(driver, database, space, options.dimension_threads).dimensions
    step("dimensions")
    own_indexes = dedicate(driver, database, space, options.own_indexes_from)
    step("own_indexes")
    after = figures(driver, database, space)
    return ConsolidationReport(
        space=space,
        started_at=started_at,
        seconds=round(time.perf_counter() - start, 3),
        before=before,
        after=after,
        duplicate_candidates=duplicates.candidates,
        duplicates_found=duplicates.merged + duplicates.updated,
        duplicates_merged=duplicates.merged,
        facts_updated=duplicates.updated,
        facts_revised=revisions.revised,
        conflicts_found=conflicts.groups,
        conflicts_resolved=conflicts.resolved,
        late_proofs_carried=late,
        aliases=aliases.aliases,
        aliases_added=aliases.added,
        intents_merged=intents.merged,
        prescriptions_repointed=intents.prescriptions_moved,
        dimensions=dimensions,
        own_indexes=own_indexes,
        step_seconds=steps,
    )
