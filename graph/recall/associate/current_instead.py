"""Current instead: proactive recall surfaces what holds now. A statement that a revision replaced (it stays a recall
candidate: graph/recall/steps/current_versions.py) gives its place to its current version, with the paths and the
wording that brought it: "Tom is settling into Lisbon" brings up his move to Madrid, never the Lisbon move alone."""

from __future__ import annotations

from graph.recall.associate.run import associate_run
from graph.recall.candidates import Ranked
from graph.recall.run import RecallRun
from graph.recall.steps.current_versions import CurrentVersionsAbove, brought_in


class CurrentInstead(CurrentVersionsAbove):
    name = "current instead"

    def runs(self, run: RecallRun) -> bool:
        return bool(self.replaced(run))  # whatever `current_versions` says: associate never surfaces a replaced one

    def replaced(self, run: RecallRun) -> list[str]:
        return [item.id for item in run.ranked if item.superseded_by]  # none surfaces, wherever it ranks

    def apply(self, run: RecallRun, found: dict[str, str] | None) -> None:
        state = associate_run(run)
        by_id = {item.id: item for item in run.ranked}
        ranking: list[Ranked] = []
        placed: set[str] = set()
        instead: dict[str, str] = {}
        for item in run.ranked:
            if item.superseded_by is None:
                if item.id not in placed:
                    ranking.append(item)
                    placed.add(item.id)
                continue
            head = (found or {}).get(item.id)
            current = None if head is None or head in placed else by_id.get(head) or brought_in(run, head, item)
            if current is None:
                continue  # its current version already surfaces above (or is gone): the replaced one does not
            current.score = max(current.score, item.score)
            similarity = max(current.components.get("similarity", 0.0), item.components.get("similarity", 0.0))
            current.components["similarity"] = similarity
            current.found_by += [source for source in item.found_by if source not in current.found_by]
            paths = state.paths.setdefault(current.id, [])
            proofs = [path for proof in item.provenance for path in state.paths.get(proof.episode_id, [])]
            paths += [path for path in state.paths.get(item.id, []) + proofs if path not in paths]
            ranking.append(current)
            placed.add(current.id)
            instead[item.id] = current.id
        run.ranked = ranking
        run.trace.add("current instead", instead=instead)
