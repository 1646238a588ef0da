"""engram.integrations.langgraph against the test stack's API: LangGraph's store methods, sync and async, on a fresh
space; a LangGraph graph whose node remembers and searches through the store; bad namespaces refused.

LangGraph ships no store conformance helpers (langgraph-checkpoint-conformance covers checkpointers only), so these
tests follow the BaseStore contract as InMemoryStore keeps it: put/get round trips, upserts, deletes, prefix search with
filters, offset and limit, list_namespaces with prefix, suffix and max_depth, and InvalidNamespaceError."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Iterator
from typing import Any, TypedDict

import httpx
import neo4j
import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore, InvalidNamespaceError, PutOp

from engram.integrations.langgraph import EngramStore
from engram.settings import PROJECT_ROOT, EngramSettings
from graph.admin import delete_space
from graph.api_keys import ApiKeyStore

pytestmark = [pytest.mark.e2e]


@pytest.fixture()
def api(settings: EngramSettings) -> str:
    base = f"http://{settings.api.host}:{settings.api.port}"
    assert httpx.get(f"{base}/healthz", timeout=10).json() == {"status": "ok"}, "the stack's API is not running"
    return base


@pytest.fixture()
def space_key(settings: EngramSettings, driver: neo4j.Driver) -> Iterator[str]:
    """A space of its own (its users' memories too are deleted afterwards) and its key."""
    name = f"test-langgraph-{uuid.uuid4().hex[:10]}"
    keys = ApiKeyStore(driver, settings.neo4j.database)
    keys.create_space(name)
    try:
        yield keys.issue(name, "langgraph").secret
    finally:
        delete_space(driver, settings.neo4j.database, name)


DIET = {"content": "I am vegetarian and I love Italian food.", "category": "food"}
RULES = {"rules": ["no meat", "no fish"], "priority": 2}


def _keys(items: list[Any]) -> list[tuple[tuple[str, ...], str]]:
    return sorted((item.namespace, item.key) for item in items)


def test_the_store_puts_gets_searches_and_deletes(api: str, space_key: str) -> None:
    with EngramStore(url=api, api_key=space_key) as store:
        store.put(("ana", "trip"), "diet", DIET)
        store.put(("ana",), "city", {"content": "I live in Lisbon with my cat Miso."})
        store.put(("ana", "trip", "planner"), "diet", RULES)  # the same key in another namespace: another item
        store.put(("bob",), "city", {"content": "I live in Oslo."})

        item = store.get(("ana", "trip"), "diet")
        assert item is not None and item.value == DIET and item.namespace == ("ana", "trip") and item.key == "diet"
        assert store.get(("ana", "trip", "planner"), "diet").value == RULES  # type: ignore[union-attr]
        assert store.get(("ana",), "diet") is None and store.get(("carol",), "city") is None
        store.put(("ana", "trip"), "diet", DIET)  # the same value again: nothing written
        assert store.get(("ana", "trip"), "diet") == item

        # Listing: a prefix covers the namespaces below it; one user's items never show in another's.
        assert _keys(store.search(("ana",))) == [
            (("ana",), "city"), (("ana", "trip"), "diet"), (("ana", "trip", "planner"), "diet")
        ]  # fmt: skip
        assert _keys(store.search(("ana", "trip"))) == [(("ana", "trip"), "diet"), (("ana", "trip", "planner"), "diet")]
        assert _keys(store.search(("ana",), filter={"category": "food"})) == [(("ana", "trip"), "diet")]
        assert _keys(store.search(("ana",), filter={"priority": {"$gte": 2}})) == [(("ana", "trip", "planner"), "diet")]
        assert len(store.search(("ana",), limit=2)) == 2 and len(store.search(("ana",), offset=2)) == 1
        assert _keys(store.search(())) == [*_keys(store.search(("ana",))), (("bob",), "city")]

        # Search with a query: Engram's recall, credited to the items it comes from, with provenance.
        found = store.search(("ana",), query="Where does Ana live?")
        assert found and found[0].key == "city" and found[0].namespace == ("ana",)
        assert found[0].score is not None and found[0].value["content"] == "I live in Lisbon with my cat Miso."
        recalled = found[0].value["_engram"]["recalled"]
        assert recalled and recalled[0]["provenance"][0]["key"] == "city"
        assert all(item.namespace[0] == "ana" for item in found)

        # An update replaces what the item proved; created_at stays, updated_at moves.
        store.put(("ana",), "city", {"content": "I live in Porto now."})
        moved = store.get(("ana",), "city")
        assert moved is not None and moved.value == {"content": "I live in Porto now."}
        first = next(i for i in store.search(("ana",)) if i.key == "city")
        assert first.created_at <= moved.updated_at
        answer = store.search(("ana",), query="Where does Ana live?")
        assert answer and answer[0].key == "city"
        texts = [r["text"] for i in answer for r in i.value["_engram"]["recalled"]]
        assert not any("Lisbon" in t for t in texts), texts

        assert store.list_namespaces() == [("ana",), ("ana", "trip"), ("ana", "trip", "planner"), ("bob",)]
        assert store.list_namespaces(prefix=("ana",), max_depth=2) == [("ana",), ("ana", "trip")]
        assert store.list_namespaces(suffix=("planner",)) == [("ana", "trip", "planner")]
        assert store.list_namespaces(prefix=("*", "trip")) == [("ana", "trip"), ("ana", "trip", "planner")]

        store.delete(("ana", "trip"), "diet")
        assert store.get(("ana", "trip"), "diet") is None
        assert _keys(store.search(("ana", "trip"))) == [(("ana", "trip", "planner"), "diet")]


def test_bad_namespaces_are_refused_with_the_stores_error(api: str, space_key: str) -> None:
    with EngramStore(url=api, api_key=space_key) as store:
        for namespace in [(), ("a", "b", "c", "d"), ("ana", 7), ("",), ("a.b",), ("x" * 300,)]:
            with pytest.raises(InvalidNamespaceError):
                store.put(namespace, "k", {"content": "x"})  # type: ignore[arg-type]
            with pytest.raises(InvalidNamespaceError):
                store.batch([PutOp(namespace, "k", {"content": "x"})])  # type: ignore[arg-type]
        with pytest.raises(InvalidNamespaceError):
            store.get(("a", "b", "c", "d"), "k")
        with pytest.raises(InvalidNamespaceError):
            store.search((), query="anything?")  # recall reads one user's memory
        assert store.search(("nobody",)) == [] and store.list_namespaces() == []


def test_the_async_store(api: str, space_key: str) -> None:
    async def run() -> None:
        async with EngramStore(url=api, api_key=space_key) as store:
            await store.aput(("maya",), "pottery", {"text": "I started a pottery class on Tuesdays.", "level": 1})
            await store.aput(("maya", "s1"), "sister", {"text": "I made a blue vase for my sister."})
            item = await store.aget(("maya",), "pottery")
            assert item is not None and item.value == {"text": "I started a pottery class on Tuesdays.", "level": 1}
            assert _keys(await store.asearch(("maya",))) == [(("maya",), "pottery"), (("maya", "s1"), "sister")]
            found = await store.asearch(("maya",), query="What did Maya make for her sister?")
            assert found and found[0].key == "sister"
            assert await store.alist_namespaces() == [("maya",), ("maya", "s1")]
            await store.adelete(("maya", "s1"), "sister")
            assert await store.aget(("maya", "s1"), "sister") is None
            with pytest.raises(InvalidNamespaceError):
                await store.aput((), "k", {"text": "x"})

    asyncio.run(asyncio.wait_for(run(), timeout=300))


class State(TypedDict):
    user: str
    said: str
    recalled: list[str]


def _remember(state: State, *, store: BaseStore) -> dict[str, Any]:
    store.put((state["user"],), "turn-1", {"content": state["said"]})
    return {}


def _recall(state: State, *, store: BaseStore) -> dict[str, Any]:
    found = store.search((state["user"],), query="Which instrument does Leo play?", limit=3)
    return {"recalled": [item.value["content"] for item in found]}


def test_a_langgraph_graph_remembers_through_the_store(api: str, space_key: str) -> None:
    """LangGraph hands the store to the nodes (`store=` at compile time): they write and search Engram."""
    builder = StateGraph(State)
    builder.add_node("remember", _remember)
    builder.add_node("recall", _recall)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", END)
    with EngramStore(url=api, api_key=space_key) as store:
        graph = builder.compile(store=store)
        out = graph.invoke({"user": "leo", "said": "I play the cello in a quartet.", "recalled": []})
        assert out["recalled"] == ["I play the cello in a quartet."]
        assert store.get(("leo",), "turn-1") is not None


def test_the_docs_example_runs(api: str, space_key: str, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/integrations.md's LangGraph example, as written, with this stack's URL and key."""
    text = (PROJECT_ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
    example = re.findall(r"```python\n(.*?)```", text, re.S)[0]
    assert '"http://127.0.0.1:8000"' in example and '"egk_..."' in example
    exec(example.replace('"http://127.0.0.1:8000"', repr(api)).replace('"egk_..."', repr(space_key)), {})
    assert "I am vegetarian." in capsys.readouterr().out
