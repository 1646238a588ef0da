"""Abstract (with propagate and expand): the query's concepts, their activation spread over associations, and the
knowledge mentioning the most activated ones. Needs only the query, so it runs while the seed searches do."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from graph.recall.hits import ConceptHit
from graph.recall.logic.abstract import concepts_to_expand, merge_expansion
from graph.recall.run import RecallRun
from graph.recall.steps.base import Step


@dataclass(frozen=True)
class Abstraction:
    """What the abstraction found: the query's concepts, their spread activation, the expansion's rows."""

    concepts: list[ConceptHit]
    activation: dict[str, float]
    spread: dict[str, tuple[str, float]]
    expanded: dict[str, float]
    expansion: list[dict[str, Any]]
    ms: float


class Abstract(Step[Abstraction]):
    """Finds the query's concepts (the abstractor), spreads their activation one hop over associations and reads the
    knowledge mentioning the most activated; joins it as list "concepts" after the seeds'."""

    name = "abstract"

    def find(self, run: RecallRun) -> Abstraction:
        return abstract(run)

    def apply(self, run: RecallRun, found: Abstraction | None) -> None:
        if found is not None:
            join_abstraction(run, found)


def abstract(run: RecallRun) -> Abstraction:
    started = time.perf_counter()
    tuning, searcher = run.config, run.searcher
    concepts = run.tools.abstractor.concepts(run.request.query, run.vector, searcher, run.threads.searches)
    activation: dict[str, float] = {c.id: c.score * c.idf for c in concepts}
    spread: dict[str, tuple[str, float]] = {}
    by_seed: dict[str, float] = {}
    neighbours = searcher.propagate(concepts, tuning.abstraction.concept_fanout)
    for seed, _, weight in neighbours:
        by_seed[seed] = max(by_seed.get(seed, 0.0), weight)
    for seed, neighbour, weight in neighbours:
        if by_seed[seed] <= 0:
            continue
        gained = tuning.abstraction.propagation * activation[seed] * weight / by_seed[seed]
        activation[neighbour.id] = activation.get(neighbour.id, 0.0) + gained
        spread[neighbour.key] = (seed, round(gained, 3))
    df = {c.id: c.df for c in concepts} | {n.id: n.df for _, n, _ in neighbours}
    top = concepts_to_expand(tuning, activation, df)
    expansion = searcher.expand(top, run.vector, tuning.abstraction.per_concept)
    return Abstraction(concepts, activation, spread, top, expansion, 1000 * (time.perf_counter() - started))


def join_abstraction(run: RecallRun, abstraction: Abstraction) -> None:
    """Adds the expansion's knowledge after the seeds' (so the merge order stays the same) and marks the
    activated concepts, which a later hop does not expand again."""
    concepts = {c.key: round(c.score * c.idf, 3) for c in abstraction.concepts}
    # ms of this step: how long recall waited for it after the seeds; it ran alongside them.
    detail: dict[str, Any] = {"concepts": concepts, "ran_alongside_seed_ms": round(abstraction.ms, 2)}
    run.trace.add("abstract", **detail)
    spread = dict(list(abstraction.spread.items())[:20])
    run.trace.add("propagate", activated=len(abstraction.activation), spread=spread)
    merge_expansion(abstraction.expansion, run.candidates, "concepts")
    run.trace.add("expand", concepts_expanded=len(abstraction.expanded), candidates=len(run.candidates))
    run.activated = set(abstraction.activation)
    run.query_concepts = list(abstraction.concepts)
