"""Current instead: proactive recall surfaces what holds now. A statement that a revision replaced (it stays a recall
candidate: graph/recall/steps/current_versions.py) gives its place to its current version, with the paths and the
wording that brought it: "Tom is settling into Lisbon" brings up his move to Madrid, never the Lisbon move alone."""

from __future__ import annotations

from graph.recall.associate.run import associate_run
from graph.recall.candidates import Ranked
from graph.recall.run import RecallRun
from graph.recall.steps.current_versions import CurrentVersionsAbove


class CurrentInstead(CurrentVersionsAbove):
    name = "current instead"

    def runs(self, run: RecallRun) -> bool:
        return bool(self.replaced(run))  # whatever `current_versions` says: associate never surfaces a replaced one

    def replaced(self, run: RecallRun) -> list[str]:
        return [item.id for item in run.ranked if item.superseded_by]  # none surfaces, wherever it ranks

    def apply(self, run: RecallRun, found: dict[str, str] | None) -> None:
        state = associate_run(run)
        super().apply(run, found)  # each current version just above what it replaced (brought in where missing)
        kept: dict[str, Ranked] = {}
        instead: dict[str, str] = {}
        for item in run.ranked:
            current = kept.get((found or {}).get(item.id, ""))
            if item.superseded_by is None:
                kept[item.id] = item
            elif current is not None:  # a replaced one with no current version above it is left out too
                # The paths and the wording that found the replaced one found what holds now; its own cosine stays
                # (the bar and what the utterance states are read on it).
                current.found_by += [source for source in item.found_by if source not in current.found_by]
                paths = state.paths.setdefault(current.id, [])
                proofs = [path for proof in item.provenance for path in state.paths.get(proof.episode_id, [])]
                paths += [path for path in state.paths.get(item.id, []) + proofs if path not in paths]
                instead[item.id] = current.id
        run.ranked = list(kept.values())
        run.trace.add("current instead", instead=instead)
