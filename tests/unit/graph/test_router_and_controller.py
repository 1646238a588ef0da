from graph.recall.logic.hop import HopController
from graph.recall.logic.route import RuleRouter
from graph.recall.models import MemoryType


def test_router() -> None:
    router = RuleRouter()
    assert router.route("How do I reset the worker?")[0] is MemoryType.PROCEDURAL
    assert router.route("What did Melanie say about her kids?")[0] is MemoryType.EPISODIC
    assert router.route("Where does Caroline live?") == [
        MemoryType.SEMANTIC,
        MemoryType.EPISODIC,
        MemoryType.PROCEDURAL,
    ]
    # An instruction no question pattern catches still reaches procedures.
    assert MemoryType.PROCEDURAL in router.route("put a clean mug in the coffee machine")


def test_controller_stops_at_the_limit_without_new_concepts_or_when_confident() -> None:
    controller = HopController(confident_similarity=0.8)
    assert not controller.decide(2, 2, 5, 0.1).another
    assert not controller.decide(1, 3, 0, 0.1).another
    assert not controller.decide(1, 3, 5, 0.9).another
    decision = controller.decide(1, 3, 5, 0.4)
    assert decision.another and "5 new concepts" in decision.reason
