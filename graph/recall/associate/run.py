"""One proactive recall in progress: a recall run that also keeps, per candidate, the paths that brought it."""

from __future__ import annotations

from dataclasses import dataclass, field

from graph.recall.associate.models import AssociationPath, PathKind
from graph.recall.run import RecallRun


@dataclass
class AssociateRun(RecallRun):
    paths: dict[str, list[AssociationPath]] = field(default_factory=dict)  # item id -> paths, as found
    bar: str | None = None  # why nothing cleared the bar, when nothing did

    def add_path(self, item_id: str, kind: PathKind, detail: str, concepts: list[str] | None = None) -> None:
        found = self.paths.setdefault(item_id, [])
        path = AssociationPath(kind=kind, detail=detail, concepts=concepts or [])
        if path not in found:
            found.append(path)


def associate_run(run: RecallRun) -> AssociateRun:
    """The run as associate's steps need it (they run only in associate's pipeline)."""
    if not isinstance(run, AssociateRun):
        raise TypeError("an associate step needs an AssociateRun (graph/recall/associate/engine.py)")
    return run
