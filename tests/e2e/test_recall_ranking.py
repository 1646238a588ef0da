"""Ranking on the real graph: the answer first when it exists, whatever the kind of memory holding it, and scores
that are the final ranking's (they fall with the rank, the value function's parts beside them)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from engram.embedding import get_embedder
from engram.settings import PROJECT_ROOT
from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.models import ItemKind, RecallRequest
from tests.support.jobs import ingest

SAMPLE = [json.loads(line) for line in (PROJECT_ROOT / "examples" / "sample.jsonl").read_text().splitlines() if line]

# Eight things said in passing; one of them answers the question asked of this space.
SMALL_TALK = [
    "I repainted the garage door blue last weekend.",
    "My cousin adopted a beagle puppy named Biscuit.",
    "The quarterly report is due on the 14th.",
    "We are planning a trip to Lisbon in spring.",
    "I finally fixed the leaking kitchen tap.",
    "The book club picked a novel about lighthouse keepers.",
    "My dentist moved my check-up to Thursday at 4 pm.",
    "The new coffee machine at work makes terrible espresso.",
]


@pytest.fixture(scope="module")
def engine() -> RecallEngine:
    from graph.driver import get_driver

    embedder = get_embedder()
    return RecallEngine(get_driver(), "neo4j", embedder.encode, embedder.count_tokens)


@pytest.fixture()
def demo_space(space: str) -> str:
    ingest(space, SAMPLE)
    return space


@pytest.mark.parametrize(
    ("query", "step"),
    [
        ("How do I cook the spaghetti?", "cook the spaghetti for 9 minutes"),  # the demo's question
        ("What are the steps to cook spaghetti?", "cook the spaghetti for 9 minutes"),
        ("What's the best way to cook the pasta?", "cook the spaghetti for 9 minutes"),
        ("How can I prepare a pasta dinner?", "open the fridge"),  # the trajectory's task, worded as a goal
        ("prepare a pasta dinner", "open the fridge"),  # an instruction, as agents give tasks
        ("cook spaghetti", "cook the spaghetti for 9 minutes"),
    ],
)
def test_a_procedural_question_gets_the_prescription_first(
    engine: RecallEngine, demo_space: str, query: str, step: str
) -> None:
    # Said by someone who speaks in the space's chat ("How do I..." then also searches what Maya said), the same.
    for asker in (None, "Maya"):
        result = engine.recall(RecallRequest(space=demo_space, query=query, asker=asker))
        top = result.items[0]
        assert top.kind is ItemKind.PRESCRIPTION, (asker, [(i.kind.value, i.text) for i in result.items[:3]])
        assert step in top.text
        # Proven by the trajectory's steps, not by the conversation in the same space.
        assert top.provenance and all(p.source_id == result.items[0].provenance[0].source_id for p in top.provenance)


def test_in_a_small_space_the_only_relevant_memory_outranks_the_rest(engine: RecallEngine, space: str) -> None:
    turns = [{"speaker": "Sam", "id": f"T{n}", "text": text} for n, text in enumerate(SMALL_TALK, start=1)]
    ingest(space, [{"type": "conversation", "id": "small-talk", "sessions": [{"id": "s1", "turns": turns}]}])
    for query in ("When is Sam's dental appointment?", "What day does Sam see the dentist?"):
        result = engine.recall(RecallRequest(space=space, query=query))
        top = result.items[0]
        assert [p.external_id for p in top.provenance] == ["T7"], (query, [i.text for i in result.items[:3]])


def test_scores_fall_with_the_rank_and_keep_their_parts(engine: RecallEngine, demo_space: str) -> None:
    for query in ("How do I cook the spaghetti?", "What did Maya make for her sister?", "Who is training?"):
        items = engine.recall(RecallRequest(space=demo_space, query=query, limit=25)).items
        assert len(items) > 3
        scores = [item.score for item in items]
        assert scores == sorted(scores, reverse=True), (query, scores)
        for item in items:
            parts = item.components
            # The final score is the value function's less the redundancy penalty: never above it.
            assert {"relevance", "similarity", "value", "redundancy"} <= parts.keys()
            assert item.score <= parts["value"] + 1e-4
        assert items[0].components["redundancy"] == 0.0 and items[0].score == pytest.approx(
            items[0].components["value"], abs=1e-4
        )


def _trajectory(record_id: str, task: str, actions: list[str]) -> dict[str, object]:
    steps = [{"observation": f"You arrive at step {n}.", "action": action} for n, action in enumerate(actions, 1)]
    return {"type": "trajectory", "id": record_id, "task": task, "steps": steps}


def test_the_procedure_for_the_task_asked_comes_before_one_for_another_kind_of_task(
    engine: RecallEngine, space: str
) -> None:
    """Two procedures share the query's object and place but do another kind of task (two mugs; a cooled mug); the one
    for the task asked moves a cup: its goal differs by a word standing in for another (graph/recall/goal_match.py)."""
    ingest(
        space,
        [
            _trajectory(
                "two-mugs",
                "put two mug in shelf.",
                [
                    "go to countertop 1",
                    "take mug 1 from countertop 1",
                    "go to shelf 1",
                    "put mug 1 in/on shelf 1",
                    "go to countertop 2",
                    "take mug 2 from countertop 2",
                    "go to shelf 1",
                    "put mug 2 in/on shelf 1",
                ],
            ),
            _trajectory(
                "cool-mug",
                "cool some mug and put it in shelf.",
                [
                    "go to countertop 1",
                    "take mug 1 from countertop 1",
                    "go to fridge 1",
                    "cool mug 1 with fridge 1",
                    "go to shelf 1",
                    "put mug 1 in/on shelf 1",
                ],
            ),
            _trajectory(
                "a-cup",
                "put a cup in shelf.",
                ["go to diningtable 1", "take cup 1 from diningtable 1", "go to shelf 1", "put cup 1 in/on shelf 1"],
            ),
        ],
    )
    result = engine.recall(RecallRequest(space=space, query="put a mug in shelf."))
    prescriptions = [item for item in result.items if item.kind is ItemKind.PRESCRIPTION]
    assert prescriptions[0].text.startswith("To put a cup in shelf"), [p.text[:40] for p in prescriptions]
    assert prescriptions[0].components["goal_fit"] == 1.0
    assert all(p.components["goal_fit"] < 1.0 for p in prescriptions[1:])


# An assistant's long generic answer: twelve statements on the topic the user's own short turn is about.
MILK_ADVICE = (
    "Oat milk froths well and tastes mild in coffee. Almond milk can curdle in hot coffee. Soy milk is rich in "
    "protein. Coconut milk adds a sweet flavour to coffee. Whole milk gives a creamy latte. Skim milk makes a lighter "
    "coffee. Lactose-free milk suits people who cannot digest lactose. Barista editions of plant milks are made for "
    "steaming. Cashew milk is creamy but expensive. Rice milk is thin and sweet. Pea milk is high in protein and "
    "froths well. Many cafes now offer several plant milks for coffee."
)


def test_a_short_turn_that_answers_is_not_crowded_out_by_a_long_answers_statements(
    engine: RecallEngine, space: str
) -> None:
    """Each statement of a long utterance is one more draw at matching the query; their score is discounted by how
    many the utterance yielded (`focus`), so the user's one statement comes before most of the advice's (with the
    exponent 0 it came after ten of them, eleventh)."""
    turns = [
        {"speaker": "User", "id": "U1", "text": "Which milks work in coffee?"},
        {"speaker": "Assistant", "id": "A1", "text": MILK_ADVICE},
        {"speaker": "User", "id": "U2", "text": "I switched to oat milk in my morning coffee last month."},
        {"speaker": "Assistant", "id": "A2", "text": "Good choice, enjoy it!"},
    ]
    ingest(space, [{"type": "conversation", "id": "milk", "sessions": [{"id": "s1", "turns": turns}]}])
    for query in ("Which milk do I put in my coffee?", "What milk am I using in my coffee now?"):
        items = engine.recall(RecallRequest(space=space, query=query)).items
        turn_of = [item.provenance[0].external_id for item in items]
        advice = [item for item in items if item.provenance[0].external_id == "A1"]
        assert "U2" in turn_of and turn_of[: turn_of.index("U2")].count("A1") < len(advice) / 2, (query, turn_of[:12])
        assert advice and all(item.components["focus"] == pytest.approx((12 / 5) ** -0.15, abs=0.03) for item in advice)


COIN_ADVICE = (
    "Storing a coin collection well keeps its value. Rare coins should be held by their edges, never by their faces. "
    "Acid-free coin flips and archival albums protect rare coins from air and moisture. Keep the collection in a cool, "
    "dry room with steady humidity. A small safe or a bank deposit box protects the most valuable rare coins. "
    "Silica gel packets absorb moisture near the albums. Catalogue every coin with its year, mint mark and grade. "
    "Photographs of each coin help with insurance claims. Many collectors insure rare coins separately from the house. "
    "Cleaning a rare coin lowers its value, so leave the patina alone. "
    "Coin dealers and clubs can appraise a collection."
)


def test_a_question_in_the_first_person_looks_first_at_what_the_asker_said(engine: RecallEngine, space: str) -> None:
    """The request's asker is who the query's "my" means: what they said comes before the assistant's advice on the
    same topic (without an asker, "How many coins are in my collection?" got the advice's "Coin dealers and clubs can
    appraise a collection" first and the user's "I actually have 25 rare coins" fourth)."""
    turns = [
        {"speaker": "User", "id": "U1", "text": "What is the best way to store a coin collection?"},
        {"speaker": "Assistant", "id": "A1", "text": COIN_ADVICE},
        {
            "speaker": "User",
            "id": "U2",
            "text": "Thanks! I actually have 25 rare coins to look after, so the albums sound right.",
        },
        {
            "speaker": "Assistant",
            "id": "A2",
            "text": "With 25 rare coins an archival album and a small safe will serve you well.",
        },
    ]
    ingest(space, [{"type": "conversation", "id": "coins", "sessions": [{"id": "s1", "turns": turns}]}])
    for query in ("How many coins are in my collection?", "How many rare coins do I have?"):
        result = engine.recall(RecallRequest(space=space, query=query, asker="User", addressee="Assistant"))
        turn_of = [item.provenance[0].external_id for item in result.items]
        assert set(turn_of[:2]) == {"U1", "U2"}, (query, turn_of[:8])
        step = next(s for s in result.trace if s.step == "participants")
        assert step.detail["meant"] == ["User"] and "participant" in result.items[0].found_by


def test_what_someone_says_now_comes_before_what_it_updates(space: str) -> None:
    """In May the user had completed four projects; in June they finished a fifth. The two statements say nearly the
    same thing, and the June one goes above the May one, which is marked replaced."""
    may = [
        {
            "speaker": "User",
            "id": "M1",
            "text": "I have completed 4 painting projects since starting my painting classes.",
        },
        {"speaker": "Assistant", "id": "M2", "text": "Congratulations! Watercolour landscapes are a great next step."},
    ]
    june = [
        {"speaker": "User", "id": "J1", "text": "I'm looking for ideas for a birthday present for my sister."},
        {
            "speaker": "User",
            "id": "J2",
            "text": "By the way, I just finished my 5th painting project since starting my painting classes.",
        },
        {
            "speaker": "Assistant",
            "id": "J3",
            "text": "A framed print of one of your paintings would make a lovely gift.",
        },
    ]
    sessions = [
        {"id": "may", "started_at": "2023-05-02T10:00:00Z", "turns": may},
        {"id": "june", "started_at": "2023-06-20T10:00:00Z", "turns": june},
    ]
    ingest(space, [{"type": "conversation", "id": "painting", "sessions": sessions}])
    query = "How many painting projects have I completed since starting painting classes?"
    request = RecallRequest(space=space, query=query, asker="User", addressee="Assistant")
    embedder = get_embedder()

    def engine(tuning: RecallConfig) -> RecallEngine:
        from graph.driver import get_driver

        return RecallEngine(get_driver(), "neo4j", embedder.encode, embedder.count_tokens, config=tuning)

    # The June statement revises the May one when it is ingested (revisions, docs/supersession.md): the current
    # version first whatever the ranking steps, the earlier one returned below it, marked.
    for tuning in (RecallConfig(), RecallConfig(current_versions=False, restatement=0.0)):
        result = engine(tuning).recall(request)
        order = [item.provenance[0].external_id for item in result.items]
        assert order.index("J2") < order.index("M1"), order
        may_item = next(item for item in result.items if item.provenance[0].external_id == "M1")
        june_item = next(item for item in result.items if item.provenance[0].external_id == "J2")
        assert may_item.superseded_by == june_item.id
        # It held in the world until the June statement's time (not the server's clock).
        assert may_item.valid_to == june_item.valid_from == datetime(2023, 6, 20, 10, tzinfo=UTC)


def test_a_question_about_a_state_gets_the_latest_version_first(space: str) -> None:
    """In March the user bought a 50mm lens; in August they speak of their new 70-200mm one in passing (and of other
    things in December). Asked what they bought most recently, the August statement comes first though the March one
    matches the question's words better; asked about a lens without asking what holds now, nothing moves."""
    march = [
        {
            "speaker": "User",
            "id": "M1",
            "text": "I purchased a new type of camera lens last week, a 50mm prime lens, and it works great.",
        },
        {"speaker": "Assistant", "id": "M2", "text": "A 50mm prime is a wonderful lens for portraits."},
    ]
    august = [
        {"speaker": "User", "id": "A1", "text": "Can you compare the Gitzo and Really Right Stuff tripods for me?"},
        {
            "speaker": "User",
            "id": "A2",
            "text": "By the way, I've been getting some great shots with my new 70-200mm zoom lens lately.",
        },
        {"speaker": "Assistant", "id": "A3", "text": "Both tripods are sturdy; the Gitzo is a little lighter."},
    ]
    december = [{"speaker": "User", "id": f"D{i}", "text": text} for i, text in enumerate(SMALL_TALK)]
    sessions = [
        {"id": "march", "started_at": "2023-03-11T10:00:00Z", "turns": march},
        {"id": "august", "started_at": "2023-08-30T10:00:00Z", "turns": august},
        {"id": "december", "started_at": "2023-12-11T10:00:00Z", "turns": december},
    ]
    ingest(space, [{"type": "conversation", "id": "camera", "sessions": sessions}])
    embedder = get_embedder()

    def first_turn(query: str, tuning: RecallConfig) -> tuple[str, object]:
        from graph.driver import get_driver

        engine = RecallEngine(get_driver(), "neo4j", embedder.encode, embedder.count_tokens, config=tuning)
        result = engine.recall(RecallRequest(space=space, query=query, asker="User", addressee="Assistant"))
        step = next((s for s in result.trace if s.step == "latest version first"), None)
        scores = [item.score for item in result.items]
        assert scores == sorted(scores, reverse=True)  # the moved item's score is its new rank's
        return result.items[0].provenance[0].external_id, step.detail["latest_first"] if step else None

    latest = "What type of camera lens did I purchase most recently?"
    turn, moved = first_turn(latest, RecallConfig())
    assert turn == "A2" and moved is not None
    assert first_turn(latest, RecallConfig(latest=0.0)) == ("M1", None)  # what the words match best
    assert first_turn("What type of camera lens did I purchase?", RecallConfig())[1] is None


ROTA_DRAFTS = [
    "Here is a shift rotation sheet for the support agents, one week from Sunday to Saturday.",
    "Sure, here is the shift rotation sheet again with four shifts a day, Sunday to Saturday.",
    "Here is an updated shift rotation sheet: every agent gets two days off, the week starts on Sunday.",
    "No problem, here is the shift rotation sheet with the night shift added, starting on Sunday.",
    "The shift rotation sheet now gives the weekend shifts to the senior agents, Sunday first.",
]
CHORES = ["sourdough starter", "tomato seedlings", "bike chain", "Lisbon trip", "piano scales", "tax return",
          "yoga class", "laptop battery", "birthday cake", "book club", "dentist visit", "running shoes",
          "garden fence", "car insurance"]  # fmt: skip


def test_the_utterance_holding_a_questions_rare_name_outranks_those_sharing_only_its_common_words(space: str) -> None:
    """Five drafts of a shift rotation sheet, then the one line that names an agent, among 56 turns on other
    chores. Asked for that agent's Sunday shift, the drafts share the question's common words ("shift", "rotation",
    "sheet", "Sunday") and sit beside the named line in the full-text lists; counted by how much of the question's
    distinctive words they hold (the name: 1 of 62 turns), they no longer outvote it."""
    chat = []
    for day, chore in enumerate(CHORES, start=2):
        chat += [
            ("User", f"Can you help me with my {chore}? It has been on my mind all week."),
            ("Assistant", f"Of course. Tell me what is going on with the {chore} and we can go through it."),
            ("User", f"I tried again on day {day} and the {chore} still did not go the way I hoped."),
            ("Assistant", f"That happens. A small change each time usually sorts out the {chore}."),
        ]
    turns = [{"speaker": speaker, "id": f"C{i}", "text": text} for i, (speaker, text) in enumerate(chat)]
    named = [*ROTA_DRAFTS, "Sunday: Quillon works the night shift."]
    turns += [{"speaker": "Assistant", "id": f"S{i}", "text": text} for i, text in enumerate(named)]
    ingest(space, [{"type": "conversation", "id": "rota", "sessions": [{"id": "s1", "turns": turns}]}])
    embedder = get_embedder()

    def first(tuning: RecallConfig) -> tuple[str, object]:
        from graph.driver import get_driver

        engine = RecallEngine(get_driver(), "neo4j", embedder.encode, embedder.count_tokens, config=tuning)
        query = "What was the rotation for Quillon on a Sunday in the shift rotation sheet?"
        result = engine.recall(RecallRequest(space=space, query=query))
        seed = next(step for step in result.trace if step.step == "seed")
        return result.items[0].provenance[0].external_id, seed.detail.get("distinctive")

    # The trace names the word that made the difference, as the index analyses it, for each list that had one.
    assert first(RecallConfig()) == ("S5", {"episodes": ["quillon"], "propositions": ["quillon"]})
    assert first(RecallConfig(distinctive_exponent=0.0))[0] in {"S0", "S1", "S2", "S3", "S4"}  # by ranks alone a draft
