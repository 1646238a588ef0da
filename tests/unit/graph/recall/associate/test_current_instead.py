"""Associate never surfaces a statement a revision replaced: its current version stands in its place
(graph/recall/associate/current_instead.py)."""

from __future__ import annotations

from graph.recall.associate.engine import Associator
from graph.recall.associate.models import AssociateRequest
from tests.unit.graph.recall.recall_support import SPACE, new_engine
from tests.unit.graph.recall.test_current_versions import revised_memory


def test_the_current_version_surfaces_in_place_of_what_it_replaced() -> None:
    associator = Associator(new_engine(revised_memory()))
    result = associator.associate(AssociateRequest(space=SPACE, utterance="Berlin is where Alice lives, with Rex"))
    ids = [association.item.id for association in result.associations]
    assert "p_lisbon" in ids and "p_berlin" not in ids, ids
    (step,) = [step for step in result.trace if step.step == "current instead"]
    assert step.detail["instead"] == {"p_berlin": "p_lisbon"}
