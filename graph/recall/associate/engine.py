"""Proactive recall (`associate`) as a declared pipeline on the recall engine: `PIPELINE` below is every step, in
order. Given what the user just said, it returns the memories worth surfacing, each with the paths that brought it
(graph/recall/associate/models.py `PathKind`), best first, or nothing with the reason.

Recall's steps find by wording and one hop over concept associations; associate adds the paths a remark (not a
question) takes: the concepts it mentions and two hops over their associations, the recurring time it speaks of,
the feeling it voices, and what was said together with what it reaches (a habit's parts). It leaves out what the
utterance itself states; superseded knowledge is never a candidate (every search reads the current statements) and
near-duplicates give way to the next distinct memory (recall's MMR). Knobs: `RecallConfig.associate`.
"""

from __future__ import annotations

from collections.abc import Sequence

from graph.recall.associate.current_instead import CurrentInstead
from graph.recall.associate.models import (
    AssociateRequest,
    AssociateResult,
    Association,
    AssociationPath,
    PathKind,
)
from graph.recall.associate.run import AssociateRun
from graph.recall.associate.steps import (
    Bar,
    Feelings,
    NotStated,
    OnePerUtterance,
    Recurring,
    SameSitting,
    SharedConcepts,
    SpeakersOwnWords,
    Surface,
    TwoHops,
)
from graph.recall.engine import PipelineStep, RecallEngine
from graph.recall.models import MemoryType, RecallItem, RecallRequest
from graph.recall.steps.base import Together
from graph.recall.steps.mmr import Mmr
from graph.recall.steps.rank import Rank
from graph.recall.steps.route import Route
from graph.recall.steps.seed import Seed

PIPELINE: tuple[PipelineStep, ...] = (
    Route(),  # the utterance's vector (the memory kinds are fixed: knowledge, and utterances that hold none)
    # Side by side: recall's seeds (wording) | the utterance's concepts and their associations | the earlier
    # occasions of the time it speaks of | the utterances naming the feeling it voices.
    Together(Seed(), SharedConcepts(), Recurring(), Feelings()),
    TwoHops(),  # the associations of the associations
    Rank(),
    SpeakersOwnWords(),  # what the speaker said closest to the remark (whatever its pronouns), and named speakers
    SameSitting(),  # what was told in the same sitting as the top memories (off by default: `sitting_k` 0)
    Rank(again=True),
    CurrentInstead(),  # a statement a revision replaced gives its place to its current version
    Mmr(),  # a near-duplicate gives way to the next distinct memory
    NotStated(),  # what the utterance itself states is not surfaced back
    OnePerUtterance(),  # the statements of one turn are one memory
    Bar(),  # a path and some bearing on the utterance, or close wording; else nothing, with the reason
    Surface(),  # the best within the limit and token budget
)

# Strongest first: a shared concept or time is what the user would recognise as the reason.
_ORDER = [PathKind.CONCEPT, PathKind.TIME, PathKind.EMOTION, PathKind.TWO_HOPS, PathKind.HABIT, PathKind.WORDING]
_WORDING_LISTS = frozenset({"dense", "fulltext", "episode_dense", "episode_fulltext", "participant", "content"})
TOKEN_BUDGET = 4096  # the limit, not the budget, bounds what is surfaced


class Associator:
    """Runs associate's pipeline on a recall engine (its searchers, threads, abstractor and embedder)."""

    def __init__(self, engine: RecallEngine, pipeline: Sequence[PipelineStep] = PIPELINE) -> None:
        self._engine = engine
        self._pipeline = tuple(pipeline)
        config = engine.config
        seed = {
            "list_weights": config.seed.list_weights | config.associate.list_weights,
            "rrf_k": config.associate.rrf_k,
        }
        self.config = config.model_copy(
            update={
                "seed": config.seed.model_copy(update=seed),
                "scoring": config.scoring.model_copy(update={"value": config.associate.value}),
            }
        )

    def associate(self, request: AssociateRequest) -> AssociateResult:
        if not request.utterance.strip():
            return AssociateResult(
                utterance=request.utterance, associations=[], reason="the utterance is empty", trace=[]
            )
        recall_request = RecallRequest(
            space=request.space,
            query=request.utterance,
            memory_types=[MemoryType.SEMANTIC, MemoryType.EPISODIC],
            limit=request.limit or self.config.associate.limit,
            token_budget=TOKEN_BUDGET,
            hop_limit=1,
            now=request.now,
            min_relevance=0.0,
            scope=request.scope,
            asker=request.speaker,  # a remark's "I" and "my" are its speaker's
        )
        run = self._engine.run(recall_request, self._pipeline, self.config, AssociateRun)
        assert isinstance(run, AssociateRun)
        associations = [Association(item=item, why=why(run, item)) for item in run.items]
        return AssociateResult(
            utterance=request.utterance, associations=associations, reason=run.reason, trace=run.trace
        )


def why(run: AssociateRun, item: RecallItem) -> list[AssociationPath]:
    """The paths that brought `item`, strongest kind first: those its steps noted, a habit's part where it was said
    next to a memory surfaced above, and wording where a text search found it."""
    paths = list(run.paths.get(item.id, []))
    for proof in item.provenance:
        paths += [p for p in run.paths.get(proof.episode_id, []) if p not in paths]
    if _WORDING_LISTS & set(item.found_by):
        paths.append(AssociationPath(kind=PathKind.WORDING, detail="similar wording"))
    return sorted(paths, key=lambda p: _ORDER.index(p.kind))
