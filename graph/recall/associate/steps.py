"""Associate's own steps: the paths from an utterance to memories besides recall's (graph/recall/steps/), and the bar.

- `SharedConcepts`: recall's abstraction (the utterance's concepts, one hop over ASSOCIATED, their knowledge), noting
  for each memory the concept it shares with the utterance (or the associated concept it mentions);
- `TwoHops`: a second hop over ASSOCIATED from the concepts the first reached (list "two_hop");
- `Recurring`: the memories told on earlier occasions of the recurring time the utterance speaks of (list
  "recurring");
- `Feelings`: the utterances naming a feeling of the family the utterance voices (list "feeling");
- `NotStated`: what the utterance itself states is not surfaced back;
- `SameSitting`: what was told in the same sitting as the top memories, a habit's co-occurring parts (list "sitting");
- `Bar`: a memory surfaces only if a path brought it and it bears on the utterance at all, or its wording is close.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from graph.recall.associate.feelings import Feeling, feelings
from graph.recall.associate.models import PathKind
from graph.recall.associate.recurring import Recurrence, recurrence
from graph.recall.associate.run import AssociateRun, associate_run
from graph.recall.candidates import Ranked, merge_episode_hits
from graph.recall.hits import ConceptHit, Hit, TimeWindow, WindowHits
from graph.recall.logic.abstract import concepts_to_expand, merge_expansion
from graph.recall.logic.prune import prune
from graph.recall.participant_search import ParticipantSearch, search_participants
from graph.recall.query import named_participants
from graph.recall.run import RecallRun
from graph.recall.steps.abstract import Abstract, Abstraction
from graph.recall.steps.base import Step
from graph.recall.steps.participants import Participants


def _strong_concepts(run: RecallRun, concepts: list[ConceptHit]) -> list[ConceptHit]:
    """The utterance's concepts matched closely enough to be a path (an exact key, or a near concept vector)."""
    least = run.config.associate.concept_min_score
    return [c for c in concepts if c.score >= least]


class SharedConcepts(Abstract):
    """Recall's abstraction; a memory it brings has the path "concept" (the utterance's concept it mentions, or the
    concept associated with one)."""

    def apply(self, run: RecallRun, found: Abstraction | None) -> None:
        super().apply(run, found)
        if found is None:
            return
        state = associate_run(run)
        strong = {c.id: c.key for c in _strong_concepts(run, found.concepts)}
        for row in found.expansion:
            for key in row["via"]:
                if key in strong.values():
                    state.add_path(row["id"], PathKind.CONCEPT, f"concept '{key}'", [key])
                elif key in found.spread and found.spread[key][0] in strong:
                    seed = strong[found.spread[key][0]]
                    state.add_path(
                        row["id"], PathKind.CONCEPT, f"concept '{key}', associated with '{seed}'", [seed, key]
                    )


@dataclass(frozen=True)
class _Hop:
    via: str  # the first hop's concept key
    seed: str  # the utterance's concept key


class TwoHops(Step[None]):
    """From the utterance's concepts, over ASSOCIATED to their neighbours, and over ASSOCIATED again: the concepts
    reached only so, expanded back to the memories mentioning them (list "two_hop", activation decayed)."""

    name = "two hops"

    def runs(self, run: RecallRun) -> bool:
        return run.config.associate.two_hop_fanout > 0 and bool(_strong_concepts(run, run.query_concepts))

    def apply(self, run: RecallRun, found: None) -> None:
        state, config = associate_run(run), run.config
        seeds = _strong_concepts(run, run.query_concepts)
        first = run.searcher.propagate(seeds, config.abstraction.concept_fanout)
        keys = {c.id: c.key for c in seeds}
        start = {c.id: c.score * c.idf for c in seeds}
        reached: dict[str, tuple[ConceptHit, float, _Hop]] = {}
        for seed, neighbour, weight in first:
            if neighbour.id in start or weight <= 0:
                continue
            value = config.abstraction.propagation * start[seed]
            if neighbour.id not in reached or reached[neighbour.id][1] < value:
                reached[neighbour.id] = (neighbour, value, _Hop(neighbour.key, keys[seed]))
        second = run.searcher.propagate([hit for hit, _, _ in reached.values()], config.associate.two_hop_fanout)
        strongest: dict[str, float] = {}
        for via, _, weight in second:
            strongest[via] = max(strongest.get(via, 0.0), weight)
        activation: dict[str, float] = {}
        chains: dict[str, tuple[str, str, str]] = {}
        df: dict[str, int] = {}
        for via, concept, weight in second:
            # Only what the strong concepts reach on the second hop alone (a weak concept's neighbour may be here).
            if concept.id in start or concept.id in reached or weight <= 0 or strongest[via] <= 0:
                continue
            _, value, hop = reached[via]
            gained = config.associate.two_hop_decay * value * weight / strongest[via]
            if gained > activation.get(concept.id, 0.0):
                chains[concept.key] = (hop.seed, hop.via, concept.key)
            activation[concept.id] = activation.get(concept.id, 0.0) + gained
            df[concept.id] = concept.df
        budget = round(config.associate.two_hop_decay * config.abstraction.expand_mentions)
        top = concepts_to_expand(config, activation, df, budget=budget)
        rows = run.searcher.expand(top, run.vector, config.abstraction.per_concept) if top else []
        merge_expansion(rows, run.candidates, "two_hop")
        run.activated |= top.keys()
        for row in rows:
            for key in row["via"]:
                if key in chains:
                    state.add_path(row["id"], PathKind.TWO_HOPS, " > ".join(chains[key]), list(chains[key]))
        shown = dict(list(chains.items())[:20])
        run.trace.add("two hops", reached=len(reached), concepts=len(top), items=len(rows), chains=shown)
        run.unranked_evidence += len(rows)


@dataclass(frozen=True)
class _Occasions:
    recurrence: Recurrence
    windows: int
    hits: WindowHits


class Recurring(Step[_Occasions]):
    """The weekday and time of day the utterance speaks of ("Wednesday night again"): what was told on its earlier
    occasions, on the user's clock (the zone of `now`)."""

    name = "recurring"

    def runs(self, run: RecallRun) -> bool:
        return run.config.associate.recurring_k > 0 and recurrence(run.request.query, run.request.now) is not None

    def find(self, run: RecallRun) -> _Occasions | None:
        found = recurrence(run.request.query, run.request.now)
        if found is None:
            return None
        windows = found.windows(run.request.now or datetime.now(UTC), run.config.associate.recurring_weeks)
        hits = run.searcher.episodes_within(windows, run.vector, run.config.associate.recurring_k)
        return _Occasions(found, len(windows), hits)

    def apply(self, run: RecallRun, found: _Occasions | None) -> None:
        if found is None:
            return
        _merge_episodes(run, "recurring", found.hits.hits, PathKind.TIME, found.recurrence.label)
        run.trace.add("recurring", time=found.recurrence.label, occasions=found.windows, episodes=len(found.hits.hits))


@dataclass(frozen=True)
class _Felt:
    feelings: list[Feeling]
    hits: list[Hit]


class Feelings(Step[_Felt]):
    """The feeling the utterance voices ("I'm so frustrated"): the utterances naming a feeling of the same family
    (stressed, annoyed, overwhelmed), and through them what the user does about it."""

    name = "feeling"

    def runs(self, run: RecallRun) -> bool:
        return run.config.associate.feeling_k > 0 and bool(feelings(run.request.query))

    def find(self, run: RecallRun) -> _Felt:
        felt = feelings(run.request.query)
        words = list(dict.fromkeys(word for feeling in felt for word in feeling.words))
        hits = run.searcher.fulltext("episodes", " OR ".join(words), run.config.associate.feeling_k)
        return _Felt(felt, hits)

    def apply(self, run: RecallRun, found: _Felt | None) -> None:
        if found is None:
            return
        detail = "; ".join(f"{f.family}: {', '.join(f.said)}" for f in found.feelings)
        _merge_episodes(run, "feeling", found.hits, PathKind.EMOTION, detail)
        run.trace.add("feeling", feelings=detail, episodes=len(found.hits))


def _merge_episodes(run: RecallRun, name: str, hits: list[Hit], kind: PathKind, detail: str) -> None:
    state = associate_run(run)
    merge_episode_hits(name, hits, run.types, run.candidates, lambda _name, _hit: 1.0)
    for hit in hits:
        for item_id in (*hit.proves, hit.id):
            state.add_path(item_id, kind, detail)
    run.unranked_evidence += len(hits)


class SameSitting(Step[None]):
    """A habit's co-occurring parts: what was told in the same sitting (within `sitting_hours` of the top memories'
    utterances), closest to the remark first (list "sitting"). A habit is told over a conversation, not in one turn:
    the challenge, the dish it makes and the notes kept of it come a few turns apart."""

    name = "same sitting"

    def runs(self, run: RecallRun) -> bool:
        return run.config.associate.sitting_k > 0 and bool(run.ranked)

    def apply(self, run: RecallRun, found: None) -> None:
        state, config = associate_run(run), run.config.associate
        around = timedelta(hours=config.sitting_hours)
        anchors: dict[datetime, str] = {}
        # Only memories that clear the bar themselves anchor a sitting: a remark nothing bears on reaches no habit.
        bearing = [i for i in run.ranked if _has_path(state, i) or i.components["similarity"] >= config.min_similarity]
        for item in bearing[: config.sitting_items]:
            for proof in item.provenance:
                if proof.occurred_at is not None:
                    anchors.setdefault(proof.occurred_at, item.text)
        windows = [TimeWindow(at - around, at + around, at - around, at + around) for at in anchors]
        hits = run.searcher.episodes_within(windows, run.vector, config.sitting_k).hits if windows else []
        merge_episode_hits("sitting", hits, run.types, run.candidates, lambda _name, _hit: 1.0)
        for hit in hits:
            for item_id in (*hit.proves, hit.id):
                state.add_path(item_id, PathKind.HABIT, "told in the same sitting as a memory above")
        run.trace.add("same sitting", anchors=len(anchors), hours=config.sitting_hours, episodes=len(hits))
        run.unranked_evidence += len(hits)


class SpeakersOwnWords(Participants):
    """Recall's participants step, with the speaker's own words searched whatever the remark's pronouns: a remark
    brings up what its speaker told before, whether it says "I", speaks of "you" or of no one (a question's pronouns
    say whose facts it asks about; a remark's speaker is who it is about)."""

    def find(self, run: RecallRun) -> ParticipantSearch | None:
        request = run.request
        named = named_participants(request.query, {p.speaker for item in run.ranked for p in item.provenance})
        meant = [request.asker] if request.asker and request.asker not in named else []
        return search_participants(run, named, meant) if named or meant else None


class NotStated(Step[None]):
    """Leaves out what the utterance itself states (a memory it all but repeats): surfacing it tells nothing."""

    name = "not stated"

    def apply(self, run: RecallRun, found: None) -> None:
        least = run.config.associate.stated_similarity
        stated = [item.id for item in run.ranked if item.components["similarity"] >= least]
        run.ranked = [item for item in run.ranked if item.id not in stated]
        run.trace.add("not stated", cosine_from=least, left_out=stated[:20])


class OnePerUtterance(Step[None]):
    """One memory per utterance: the statements drawn from one turn are one memory to bring up (the best stands for
    it), so the next surfaced memory is another moment the user told."""

    name = "one per utterance"

    def apply(self, run: RecallRun, found: None) -> None:
        seen: set[str] = set()
        kept, folded = [], []
        for item in run.ranked:
            told = item.provenance[0].episode_id if item.provenance else item.id
            if told in seen:
                folded.append(item.id)
                continue
            seen.add(told)
            kept.append(item)
        run.ranked = kept
        run.trace.add("one per utterance", folded=len(folded))


class Bar(Step[None]):
    """A memory surfaces if a path of the graph or of time brought it and it bears on the utterance at all (cosine
    `path_min_similarity`), or its wording alone is close (`min_similarity`); otherwise nothing, with the reason."""

    name = "bar"

    def apply(self, run: RecallRun, found: None) -> None:
        state, config = associate_run(run), run.config.associate
        kept, below = [], []
        for item in run.ranked:
            similarity = item.components["similarity"]
            if similarity >= config.min_similarity or (
                _has_path(state, item) and similarity >= config.path_min_similarity
            ):
                kept.append(item)
            else:
                below.append(item.id)
        best = max((item.components["similarity"] for item in run.ranked), default=None)
        run.ranked = kept
        if not kept:
            state.bar = (
                "nothing in memory bears on this utterance: no concept, time or feeling it names leads to a memory"
                f", and no memory's wording is within a cosine of {config.min_similarity}"
                + ("" if best is None else f" (closest {best:.2f})")
            )
        run.trace.add("bar", kept=len(kept), below=len(below), reason=state.bar)


def _has_path(state: AssociateRun, item: Ranked) -> bool:
    """Whether a step noted a path to the item, or to an utterance proving it."""
    return item.id in state.paths or any(proof.episode_id in state.paths for proof in item.provenance)


class Surface(Step[None]):
    """The memories within the request's limit and token budget (recall's prune), or none with the bar's reason."""

    name = "surface"

    def apply(self, run: RecallRun, found: None) -> None:
        state = associate_run(run)
        run.items, run.pruned = prune(run.ranked, run.token_budget, run.limit, run.tools.count_tokens)
        if not run.items:
            run.reason = state.bar or "nothing in memory to surface"
        run.trace.add(
            "surface", returned=len(run.items), pruned=run.pruned[:20], cypher_statements=run.searcher.queries
        )
