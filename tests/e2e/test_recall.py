"""Recall against the real graph: ranking, provenance, trace, budgets, modes, history, tenancy, injection."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import neo4j
import pytest

from engram.embedding import get_embedder
from graph.memory_writer import refresh_concepts
from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.models import ItemKind, MemoryType, RecallRequest, RecallResult
from tests.support.graph_queries import label_counts, rows
from tests.support.jobs import ingest


@pytest.fixture(scope="module")
def engine() -> RecallEngine:
    from graph.driver import get_driver

    embedder = get_embedder()
    return RecallEngine(get_driver(), "neo4j", embedder.encode, embedder.count_tokens)


def test_the_fact_comes_first_with_its_provenance_and_a_trace(
    engine: RecallEngine, driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    ingest(space, [conversation])
    result = engine.recall(RecallRequest(space=space, query="When did Caroline go to the LGBTQ support group?"))
    top = result.items[0]
    assert top.kind is ItemKind.PROPOSITION
    assert "support group yesterday (7 May 2023)" in top.text
    assert [p.external_id for p in top.provenance] == ["D1:3"]
    assert top.provenance[0].speaker == "Caroline"
    assert {"dense", "fulltext"} & set(top.found_by)
    steps = [s.step for s in result.trace]
    assert steps[:4] == ["route", "seed", "abstract", "propagate"] and steps[-1] == "rerank and prune"
    abstract = next(s for s in result.trace if s.step == "abstract")
    assert "lgbtq support group" in abstract.detail["concepts"]
    assert result.tokens == sum(i.tokens for i in result.items) <= 1024
    # The Browser snippet reproduces exactly the returned items.
    shown = rows(driver, result.cypher)
    assert {r["n"]["id"] for r in shown} == {i.id for i in result.items}


def test_token_budget_prunes_and_says_why(engine: RecallEngine, space: str, conversation: dict[str, Any]) -> None:
    ingest(space, [conversation])
    result = engine.recall(RecallRequest(space=space, query="What does Melanie do?", token_budget=20))
    assert result.tokens <= 20 and result.items
    pruned = next(s for s in result.trace if s.step == "rerank and prune").detail["pruned"]
    assert any("exceed the budget of 20" in p["reason"] for p in pruned)


def test_episodic_mode_returns_episodes_best_first_and_grouped_by_source(
    engine: RecallEngine, space: str, conversation: dict[str, Any]
) -> None:
    ingest(space, [conversation])
    result = engine.recall(
        RecallRequest(space=space, query="Melanie painting and running", memory_types=[MemoryType.EPISODIC])
    )
    assert result.items and all(i.kind is ItemKind.EPISODE for i in result.items)
    assert len({i.id for i in result.items}) == len(result.items)
    # Best first across sources; the grouping is alongside: every episode once, under its own source, sources in
    # the order of their best episode, each group's episodes in rank order.
    source_of = {i.id: i.provenance[0].source_id for i in result.items}
    rank = {i.id: n for n, i in enumerate(result.items)}
    grouped = [item_id for group in result.sources for item_id in group.item_ids]
    assert sorted(grouped) == sorted(rank)
    assert all(source_of[item_id] == group.source_id for group in result.sources for item_id in group.item_ids)
    assert all(ids == sorted(ids, key=rank.__getitem__) for ids in (g.item_ids for g in result.sources))
    firsts = [rank[g.item_ids[0]] for g in result.sources]
    assert firsts == sorted(firsts) and firsts[0] == 0
    # Best first: without diversification, in score order across sources (not one source's episodes, then the next).
    from graph.driver import get_driver

    embedder = get_embedder()
    plain = RecallEngine(
        get_driver(), "neo4j", embedder.encode, embedder.count_tokens, config=RecallConfig(diversity=0.0)
    ).recall(RecallRequest(space=space, query="Melanie painting and running", memory_types=[MemoryType.EPISODIC]))
    scores = [i.score for i in plain.items]
    assert len({i.provenance[0].source_id for i in plain.items}) > 1
    assert scores == sorted(scores, reverse=True)


def test_procedural_queries_find_prescriptions(engine: RecallEngine, space: str, trajectory: dict[str, Any]) -> None:
    ingest(space, [trajectory])
    result = engine.recall(RecallRequest(space=space, query="How do I plan the holiday trip?"))
    assert result.memory_types[0] is MemoryType.PROCEDURAL
    top = result.items[0]
    # The whole procedure (docs/procedures.md): every step of the trajectory, its subgoals as ordered parts.
    assert top.kind is ItemKind.PRESCRIPTION and "reserve a hotel" in top.text
    assert sorted(p.external_id for p in top.provenance) == ["step-0", "step-1", "step-2", "step-3"]


def test_superseded_knowledge_is_hidden_unless_asked_as_of_an_earlier_time(
    engine: RecallEngine, driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    ingest(space, [conversation])
    query = "What race did Melanie run for mental health?"
    (recorded,) = rows(
        driver,
        "MATCH (p:Proposition {space: $s}) WHERE p.text CONTAINS 'charity race' "
        "SET p.status = 'superseded', p.expired_at = p.recorded_at + duration('PT1H') RETURN p.recorded_at AS at",
        s=space,
    )
    now = engine.recall(RecallRequest(space=space, query=query))
    assert not any("charity race" in i.text for i in now.items)
    # What memory knew then (knownAt: the server's times; asOf is the world's, docs/api.md "Times in recall").
    then = engine.recall(RecallRequest(space=space, query=query, known_at=recorded["at"].to_native()))
    assert any("charity race" in i.text for i in then.items)


def test_one_space_never_sees_another(
    engine: RecallEngine, driver: neo4j.Driver, space: str, document: dict[str, Any]
) -> None:
    other = f"{space}-other"
    try:
        ingest(other, [document])
        ingest(space, [{"type": "document", "id": "d", "text": "The garden has tomatoes and basil growing."}])
        # No minimum: what this space holds near the question comes back (the default would rightly say "nothing").
        result = engine.recall(
            RecallRequest(space=space, query="Who restarts the ingestion worker after a deploy?", min_relevance=0.0)
        )
        other_ids = {r["id"] for r in rows(driver, "MATCH (n {space: $s}) RETURN n.id AS id", s=other)}
        assert result.items and not other_ids & {i.id for i in result.items}
        assert all("ingestion worker" not in i.text for i in result.items)
    finally:
        driver.execute_query("MATCH (n {space: $s}) DETACH DELETE n", s=other)


@pytest.mark.parametrize(
    "query",
    [
        '"support" OR *:* AND) ] \\ group',
        "MATCH (n) DETACH DELETE n //",
        "'}) RETURN 1 UNION MATCH (x) RETURN x //",
        "support~2 title:group^10 {a TO z}",
    ],
)
def test_hostile_query_text_is_just_text(
    engine: RecallEngine, driver: neo4j.Driver, space: str, conversation: dict[str, Any], query: str
) -> None:
    ingest(space, [conversation])
    before = label_counts(driver, space)
    engine.recall(RecallRequest(space=space, query=query))
    assert label_counts(driver, space) == before


def test_empty_space_returns_nothing(engine: RecallEngine, space: str) -> None:
    result = engine.recall(RecallRequest(space=space, query="anything at all"))
    assert result.items == [] and result.tokens == 0


def _chat(chat_id: str, turns: list[tuple[str, str]]) -> dict[str, Any]:
    """A one-session conversation of (speaker, text) turns, ids T1, T2, ..."""
    return {
        "type": "conversation",
        "id": chat_id,
        "sessions": [
            {
                "id": "s1",
                "started_at": "2024-03-02T10:00:00Z",
                "turns": [{"speaker": s, "id": f"T{i}", "text": t} for i, (s, t) in enumerate(turns, start=1)],
            }
        ],
    }


def test_the_turn_after_a_top_utterance_joins_as_context(engine: RecallEngine, space: str) -> None:
    """The answer sits in the reply, worded with none of the question's words: context brings it up."""
    turns = [
        ("Ana", "I finally finished my painting for the harbour exhibition."),
        ("Ben", "Congratulations! What gave you the idea?"),
        ("Ana", "A long walk along the cliffs at dawn with my grandmother."),
        ("Ben", "My brother bought a new bicycle for his commute to the office."),
        ("Ana", "The museum cafe serves a great lemon cake on Sundays."),
        ("Ben", "I am learning to play the cello this winter with a private teacher."),
        ("Ana", "Our neighbours adopted two kittens from the shelter last month."),
    ]
    ingest(space, [_chat("chat-context", turns)])
    query = "What inspired Ana's painting for the harbour exhibition?"

    def answer_rank(result_items: list[Any]) -> int:
        proven = [i for i, item in enumerate(result_items) if "T3" in {p.external_id for p in item.provenance}]
        return proven[0] if proven else len(result_items)

    result = engine.recall(RecallRequest(space=space, query=query))
    rank = answer_rank(result.items)
    assert rank < 3 and "context" in result.items[rank].found_by
    context = next(s for s in result.trace if s.step == "context")
    assert context.detail["anchors"] >= 1 and context.detail["items"] >= 1

    from graph.driver import get_driver

    embedder = get_embedder()
    without = RecallEngine(
        get_driver(), "neo4j", embedder.encode, embedder.count_tokens, config=RecallConfig(context_items=0)
    ).recall(RecallRequest(space=space, query=query))
    assert all(s.step != "context" for s in without.trace)
    assert all("context" not in item.found_by for item in without.items)
    assert rank <= answer_rank(without.items)


def test_the_same_memory_answers_the_same_way_whatever_the_store_order(
    engine: RecallEngine, driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    ingest(space, [conversation])
    queries = ["Caroline", "What did they talk about?", "painting", "When did Melanie go camping?"]

    def answers() -> list[list[tuple[str, float]]]:
        return [
            [
                (i.id, i.score)
                for i in engine.recall(RecallRequest(space=space, query=q, limit=50, min_relevance=0.0)).items
            ]
            for q in queries
        ]

    first = answers()
    assert all(first)
    # Rebuild every association edge (the same counts, stored anew and so handed back in another order).
    (concepts,) = rows(driver, "MATCH (c:Concept {space: $s}) RETURN collect(c.id) AS ids", s=space)
    refresh_concepts(driver, "neo4j", space, concepts["ids"])
    assert answers() == first


def test_a_full_text_search_matching_few_documents_takes_one_statement(driver: neo4j.Driver, space: str) -> None:
    """Fewer matches than the window: the index has nothing more to give, so the search must not keep growing its
    fetch (it used to go on to 8,192 rows in four statements) and must return what this space has."""
    from graph.recall.neo4j_searcher import GraphSearcher

    word = "zq" + space.replace("-", "")[-10:]  # a word no other space holds
    turns = [
        {"speaker": "Ann", "id": f"D1:{i}", "text": f"The {word} number {i} arrived {day}."}
        for i, day in enumerate(["on Monday", "on Tuesday", "today"], start=1)
    ]
    ingest(space, [{"type": "conversation", "id": "c", "sessions": [{"id": "s1", "turns": turns}]}])
    # Scored with the space's own statistics or with the index's, the same statement counts the terms' documents.
    for space_statistics in (True, False):
        searcher = GraphSearcher(driver, "neo4j", space, None, space_statistics=space_statistics)
        searcher.load_sizes()
        before = searcher.queries
        hits = searcher.fulltext("episodes", word, 40)
        assert len(hits) == 3
        assert searcher.queries - before == 1


@pytest.mark.parametrize("exact_scan_max", [5000, 0], ids=["exact-scan", "vector-index"])
def test_an_episode_hit_brings_the_knowledge_it_proves_in_the_same_statement(
    driver: neo4j.Driver, space: str, exact_scan_max: int
) -> None:
    """Episode searches hand back, per hit, the current propositions the episode proves and how many it ever proved
    (recall used to ask for them in a second statement): a turn stating a fact proves it, a greeting proves nothing,
    and once the fact is superseded the turn proves nothing current but is still not chit-chat. Asked `as_of` a
    time before the fact was recorded (extracted a day after the turn), the turn had proved nothing yet. Through the
    exact scan of a small space and through the vector index (a large space's path)."""
    from graph.params import vector_param
    from graph.recall.config import SearchLimits
    from graph.recall.hits import Hit
    from graph.recall.neo4j_searcher import GraphSearcher

    ingest(space, [_chat("c", [("Ann", "Hi there!"), ("Ann", "I adopted a grey cat named Pixel last spring.")])])
    episodes = rows(
        driver,
        "MATCH (e:Episode {space: $s}) OPTIONAL MATCH (p:Proposition {status: 'active'})-[:PROVEN_BY]->(e) "
        "RETURN e.external_id AS turn, e.id AS id, collect(p.id) AS proves",
        s=space,
    )
    by_turn = {r["turn"]: r for r in episodes}
    stated = sorted(by_turn["T2"]["proves"])
    assert stated and not by_turn["T1"]["proves"]
    vector = vector_param(get_embedder().encode(["Ann's cat Pixel"])[0])

    def hits_by_id(as_of: datetime | None = None) -> list[dict[str, Hit]]:
        limits = SearchLimits(exact_scan_max=exact_scan_max)
        searcher = GraphSearcher(driver, "neo4j", space, None, limits=limits, known_at=as_of)  # what memory knew
        searcher.load_sizes()
        before = searcher.queries
        dense = {hit.id: hit for hit in searcher.dense("episodes", vector, 10)}
        if exact_scan_max:  # through the shared vector index a small space may need several over-fetch rounds
            assert searcher.queries - before == 1
        before = searcher.queries
        fulltext = {hit.id: hit for hit in searcher.fulltext("episodes", "pixel OR hi", 10)}
        assert searcher.queries - before == 1
        return [dense, fulltext]

    for found in hits_by_id():
        fact, greeting = found[by_turn["T2"]["id"]], found[by_turn["T1"]["id"]]
        assert list(fact.proves) == stated and fact.ever_proved == len(stated)
        assert greeting.proves == () and greeting.ever_proved == 0

    (recorded,) = rows(
        driver,
        "UNWIND $ids AS id MATCH (p:Proposition {space: $s, id: id}) "
        "SET p.recorded_at = p.recorded_at + duration('P1D') WITH count(*) AS moved "
        "MATCH (e:Episode {space: $s}) RETURN max(e.recorded_at) AS episodes",
        ids=stated,
        s=space,
    )
    for found in hits_by_id(recorded["episodes"].to_native()):
        fact = found[by_turn["T2"]["id"]]
        assert fact.proves == () and fact.ever_proved == 0
    for found in hits_by_id(recorded["episodes"].to_native() + timedelta(days=2)):
        assert list(found[by_turn["T2"]["id"]].proves) == stated

    driver.execute_query("UNWIND $ids AS id MATCH (p:Proposition {space: $s, id: id}) SET p.status = 'superseded'",
                         ids=stated, s=space)  # fmt: skip
    for found in hits_by_id():
        fact = found[by_turn["T2"]["id"]]
        assert fact.proves == () and fact.ever_proved == len(stated)


def test_a_small_space_is_not_crowded_out_of_the_full_text_index(driver: neo4j.Driver, space: str) -> None:
    """Another space says the same word more often (so it scores higher) in 200 episodes: the first window of the
    shared index holds none of this space's. The query is scoped to the space inside the index: one statement,
    this space's three episodes, best first."""
    from graph.admin import delete_space
    from graph.recall.neo4j_searcher import GraphSearcher

    word = "zq" + space.replace("-", "")[-10:]
    turns = [
        {"speaker": "Ann", "id": f"D1:{i}", "text": f"The {word} {extra} arrived."}
        for i, extra in enumerate(["number one", f"{word} twice", "late"], start=1)
    ]
    ingest(space, [{"type": "conversation", "id": "c", "sessions": [{"id": "s1", "turns": turns}]}])
    crowd = f"crowd-{word}"  # no run of this space's name parts (those would share its scoped window)
    try:
        driver.execute_query(
            "UNWIND range(1, 200) AS i CREATE (:Episode {space: $crowd, id: $crowd + i, text: $text})",
            crowd=crowd,
            text=f"{word} {word} {word}",
        )
        first_window = rows(
            driver,
            "CALL db.index.fulltext.queryNodes('episode_text', $w, {limit: 80}) YIELD node "
            "WHERE node.space = $s RETURN node",
            w=word,
            s=space,
        )
        assert first_window == []
        searcher = GraphSearcher(driver, "neo4j", space, None)
        searcher.load_sizes()
        before = searcher.queries
        hits = searcher.fulltext("episodes", word, 40)
        assert searcher.queries - before == 1
        texts = [r["text"] for r in rows(
            driver, "UNWIND $ids AS id MATCH (e:Episode {space: $s, id: id}) RETURN e.text AS text",
            ids=[h.id for h in hits], s=space,
        )]  # fmt: skip
        assert len(texts) == 3 and f"{word} twice" in texts[0]
    finally:
        delete_space(driver, "neo4j", crowd)


def test_other_spaces_holding_the_same_concepts_do_not_crowd_out_this_ones(
    driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    """The concept index is shared: 30 other spaces with near-identical concept vectors fill the first window of
    64 rows, and the abstraction must still find this space's concepts (it over-fetches until it has them)."""
    from graph.admin import delete_space
    from graph.params import vector_param
    from graph.recall.neo4j_searcher import GraphSearcher

    ingest(space, [conversation])
    (concept,) = rows(
        driver, "MATCH (c:Concept {space: $s, key: 'lgbtq support group'}) RETURN c.embedding AS v", s=space
    )
    vector = vector_param(concept["v"])
    alone = GraphSearcher(driver, "neo4j", space, None).dense_concepts(vector, 3, 0.55)
    assert len(alone) == 3
    copies = [f"{space}-copy-{i}" for i in range(30)]
    try:
        driver.execute_query(
            "MATCH (c:Concept {space: $space}) UNWIND $copies AS copy "
            "CREATE (:Concept {space: copy, id: c.id + copy, key: c.key, name: c.name, "
            "embedding: [x IN c.embedding | x + 0.02 * (rand() - 0.5)]})",
            space=space,
            copies=copies,
        )
        first_window = rows(
            driver,
            "CALL db.index.vector.queryNodes('concept_embedding', 64, $v) YIELD node WHERE node.space = $s RETURN node",
            v=vector,
            s=space,
        )
        assert len(first_window) < 3  # one window is not enough any more
        crowded = GraphSearcher(driver, "neo4j", space, None).dense_concepts(vector, 3, 0.55)
        assert [c.id for c in crowded] == [c.id for c in alone]
    finally:
        for copy in copies:
            delete_space(driver, "neo4j", copy)


def test_a_named_participant_is_searched_for_in_what_they_said(
    engine: RecallEngine, driver: neo4j.Driver, space: str
) -> None:
    """The question names Ana; her answers never repeat its words. The name is a filter: the query's content is
    searched among what Ana said (and among everything, in case the question credits the wrong person)."""
    turns = [
        ("Ben", "Ana, you always seem so relaxed lately. Ana, tell me your secret!"),
        ("Ana", "On Thursdays I go bouldering at the climbing gym with my sister."),
        ("Ben", "Ana, I saw your photos from the lake, Ana, they looked lovely."),
        ("Ana", "I also started a pottery course, shaping bowls on the wheel is so calming."),
        ("Ben", "My manager moved the quarterly review to Friday afternoon, Ana."),
        ("Ana", "And every weekend I bake sourdough bread for the neighbours."),
        ("Ben", "Ana, the new bus timetable starts next month, did you hear, Ana?"),
    ]
    ingest(space, [_chat("chat-participants", turns)])
    query = "What hobbies does Ana have?"
    from graph.driver import get_driver

    embedder = get_embedder()
    # Diversification off in both arms: by itself it brings the three hobbies up here, past Ben's lines that only
    # name her; the comparison is of the participant search alone.
    result = RecallEngine(
        get_driver(), "neo4j", embedder.encode, embedder.count_tokens, config=RecallConfig(diversity=0.0)
    ).recall(RecallRequest(space=space, query=query, limit=10))
    step = next(s for s in result.trace if s.step == "participants")
    assert step.detail["named"] == ["Ana"] and step.detail["content"] == "What hobbies does have?"
    assert step.detail["hits"]["participant"] == 3  # all she said, and only that
    hobbies = {"T2", "T4", "T6"}
    top = [p.external_id for item in result.items[:6] for p in item.provenance]
    assert hobbies <= set(top)
    assert any("participant" in item.found_by for item in result.items[:6])

    alone = RecallConfig(participant_k=0, diversity=0.0)
    without = RecallEngine(get_driver(), "neo4j", embedder.encode, embedder.count_tokens, config=alone).recall(
        RecallRequest(space=space, query=query, limit=10)
    )
    assert all(s.step != "participants" for s in without.trace)
    found_without = {p.external_id for item in without.items[:6] for p in item.provenance}
    assert len(hobbies & found_without) < len(hobbies)


def test_a_query_naming_nobody_who_speaks_runs_no_participant_search(
    engine: RecallEngine, space: str, conversation: dict[str, Any]
) -> None:
    ingest(space, [conversation])
    result = engine.recall(RecallRequest(space=space, query="What did Zoltan paint at the lake?"))
    assert all(s.step != "participants" for s in result.trace)
    # Nobody mentions a Zoltan either: nothing is returned, and the reason says so.
    assert result.items == [] and result.reason == "nothing relevant: nothing in memory mentions 'Zoltan'"


def test_a_near_duplicate_gives_way_to_a_distinct_memory(space: str) -> None:
    """Ana says three times that she runs by the river and once that she swims: asked what exercise she does, the
    swim comes up beside the first run (maximal marginal relevance moves the repeats down, each below the item
    it repeats). Since the similarity part became the cosine itself (not (1 + cosine) / 2) and weak dense votes
    count less, the swim also ranks second without diversification; what MMR adds here is the repeats' order."""
    turns = [
        ("Ana", "I went running along the river this morning before work."),
        ("Ben", "My manager moved the quarterly review to Friday afternoon."),
        ("Ana", "Running along the river this morning before work was lovely."),
        ("Ben", "The new bus timetable starts next month."),
        ("Ana", "Every morning before work I go running along the river."),
        ("Ben", "Our neighbours adopted two kittens from the shelter."),
        ("Ana", "On Saturdays I swim laps at the city pool."),
    ]
    ingest(space, [_chat("chat-diversity", turns)])
    request = RecallRequest(space=space, query="What exercise does Ana do?", limit=50)  # every candidate

    def turn_order(result_items: list[Any]) -> list[str]:
        return [p.external_id for item in result_items for p in item.provenance]

    from graph.driver import get_driver

    embedder = get_embedder()

    def recall(tuning: RecallConfig) -> RecallResult:
        return RecallEngine(get_driver(), "neo4j", embedder.encode, embedder.count_tokens, config=tuning).recall(
            request
        )

    result = recall(RecallConfig())
    first, second = turn_order(result.items)[:2]
    assert {first, second} - {"T7"} <= {"T1", "T3", "T5"} and "T7" in {first, second}  # a run and the swim
    step = next(s for s in result.trace if s.step == "mmr")
    placed = [item.id for item in result.items]
    assert len(placed) < 40  # the whole ranking came back: every item the trace names is in it
    # An item can also slip one place because a distinct one rose above it; the repeats are those moved for their
    # closeness to an item above (the shared full-text index's statistics, other tenants' included, decide the rest).
    repeats = [moved for moved in step.detail["moved_down"] if moved["cosine"] > 0.5]
    assert repeats
    for moved in step.detail["moved_down"]:
        assert moved["to"] > moved["from"]
        assert placed.index(moved["closest"]) < placed.index(moved["id"])  # redundant with what is above it
    assert all("redundancy" in item.components for item in result.items)

    without = recall(RecallConfig(diversity=0.0))
    assert all(s.step != "mmr" for s in without.trace)
    assert turn_order(without.items).index("T7") >= turn_order(result.items).index("T7")
    assert [i.score for i in without.items] == sorted((i.score for i in without.items), reverse=True)
    assert {i.id for i in without.items} == {i.id for i in result.items}  # reordered, nothing lost


def test_recalls_run_on_the_engines_threads_instead_of_starting_their_own(
    space: str, conversation: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each recall used to start about seven threads (seed searches, abstraction, participants): on a loaded
    machine every start waits to be scheduled. The engine's pools start at most their size, once."""
    import threading

    from graph.driver import get_driver
    from graph.recall.threads import RecallThreads

    ingest(space, [conversation])
    embedder = get_embedder()
    engine = RecallEngine(get_driver(), "neo4j", embedder.encode, embedder.count_tokens)
    started: list[str] = []
    start = threading.Thread.start

    def counting_start(thread: threading.Thread) -> None:
        started.append(thread.name)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", counting_start)
    ceiling = RecallThreads().size
    queries = ["What did Caroline say about the support group?", "How do I paint a sunrise?"]
    try:
        for query in queries * 10:  # names a speaker (participant searches); procedural (seven seed searches)
            result = engine.recall(RecallRequest(space=space, query=query))
            assert result.items
    finally:
        engine.close()
    assert 0 < len(started) <= ceiling
    assert all(name.startswith("engram-recall-") for name in started)


def test_a_procedure_recorded_after_as_of_is_not_recalled(space: str, trajectory: dict[str, Any]) -> None:
    """Every prescription search (exact, vector index, full text) keeps to what memory had recorded by `known_at`
    (a procedure has no world time of its own: `as_of` leaves it in)."""
    from graph.driver import get_driver

    before = datetime.now(UTC) - timedelta(seconds=1)
    ingest(space, [trajectory])
    embedder = get_embedder()
    engine = RecallEngine(get_driver(), "neo4j", embedder.encode, embedder.count_tokens)
    query = "How do I find ingredients for pasta?"
    types = [MemoryType.PROCEDURAL]

    def procedures(as_of: datetime | None) -> list[str]:
        result = engine.recall(RecallRequest(space=space, query=query, memory_types=types, known_at=as_of))
        return [item.text for item in result.items if item.kind is ItemKind.PRESCRIPTION]

    now = procedures(None)
    assert now and "pasta" in now[0]
    assert procedures(datetime.now(UTC)) == now
    assert procedures(before) == []
