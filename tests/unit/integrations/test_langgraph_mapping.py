"""engram.integrations.langgraph without a stack: namespaces to scopes, values to texts and metadata, and the batch's
operations as the client calls they make (a fake client answers them)."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp, SearchOp

from engram.integrations.langgraph import EngramStore, Namespaces, Scope
from engram.integrations.langgraph.namespaces import check_key, item_id
from engram.integrations.langgraph.values import DEFAULT_TEXT_FIELDS, decode, encode, matches, server_filter


def test_namespaces_map_to_user_session_and_agent() -> None:
    spaces = Namespaces()
    assert spaces.item_scope(("ana",)) == Scope("ana")
    assert spaces.item_scope(("ana", "trip", "planner")) == Scope("ana", "trip", "planner")
    assert spaces.search_scope(()) == Scope(None)
    assert spaces.namespace("ana", "trip", None) == ("ana", "trip")
    assert spaces.namespace("ana", None, "planner") == ("ana",)  # an agent without a session is no namespace
    prefixed = Namespaces(prefix=("memories",), layout=("user", "agent"))
    assert prefixed.item_scope(("memories", "ana", "planner")) == Scope("ana", agent="planner")
    assert prefixed.search_scope(("memories",)) == Scope(None)
    assert prefixed.namespace("ana", "s", "planner") == ("memories", "ana", "planner")


@pytest.mark.parametrize(
    "namespace",
    [(), ("a", "b", "c", "d"), ("ana", 3), (None,), ("",), (" ",), ("a.b",), ("x" * 201,), ("a\nb",), "ana"],
)
def test_bad_namespaces_are_refused_with_langgraphs_error(namespace: Any) -> None:
    with pytest.raises(InvalidNamespaceError):
        Namespaces().item_scope(namespace)


def test_a_namespace_outside_the_prefix_is_refused() -> None:
    with pytest.raises(InvalidNamespaceError, match="prefix"):
        Namespaces(prefix=("memories",)).item_scope(("notes", "ana"))
    with pytest.raises(InvalidNamespaceError, match="no user"):
        Namespaces(prefix=("memories",)).item_scope(("memories",))
    with pytest.raises(ValueError, match="layout"):
        Namespaces(layout=("session", "user"))


def test_item_ids_are_injective_and_fit_engram() -> None:
    assert item_id(("ana", "trip"), "diet") == "ana.trip.diet"
    assert item_id(("ana", "a"), "b.c") != item_id(("ana", "a", "b"), "c")
    assert item_id(("a/b",), "k") == "a%2Fb.k"
    long = item_id(("x" * 150, "y" * 150), "k")
    assert long.startswith("#") and len(long) <= 200
    for bad in ("", "x" * 201, "a\x00", 7):
        with pytest.raises(ValueError):
            check_key(bad)


def test_values_round_trip_as_text_and_metadata() -> None:
    value = {"content": "I am vegetarian.", "category": "food", "stars": 4, "pinned": True}
    text, metadata = encode(value, DEFAULT_TEXT_FIELDS)
    assert text == "I am vegetarian." and metadata["category"] == "food"
    assert decode(text, metadata) == value
    nested = {"rules": ["no meat"], "priority": 2}
    text, metadata = encode(nested, DEFAULT_TEXT_FIELDS)
    assert text.startswith("{") and metadata["priority"] == 2 and decode(text, metadata) == nested
    with pytest.raises(ValueError, match="at most 12"):
        encode({f"f{i}": i for i in range(13)}, DEFAULT_TEXT_FIELDS)
    with pytest.raises(ValueError, match="JSON"):
        encode({"content": "x", "when": object()}, DEFAULT_TEXT_FIELDS)
    with pytest.raises(ValueError, match="20000"):
        encode({"content": "x" * 20_001}, DEFAULT_TEXT_FIELDS)


def test_filters_go_to_the_server_where_engram_can_answer_them() -> None:
    assert server_filter({"category": "food", "stars": {"$gt": 3}, "content": "x"}, DEFAULT_TEXT_FIELDS) == {
        "category": "food"
    }
    assert matches({"stars": 4}, {"stars": {"$gt": 3, "$lte": 4}})
    assert not matches({"stars": 4}, {"stars": {"$ne": 4}})
    assert not matches({"stars": "many"}, {"stars": {"$gt": 3}})


class FakeClient:
    """Records the calls a batch makes; answers none (the checks come first)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        self.calls.append(name)
        raise AssertionError(f"no call expected, got {name}")


def test_a_batch_checks_every_op_before_it_sends_anything() -> None:
    client = FakeClient()
    store = EngramStore(client=client)  # type: ignore[arg-type]
    for ops in (
        [GetOp(("ana",), "k"), PutOp(("a", "b", "c", "d"), "k", {"content": "x"})],
        [PutOp((), "k", {"content": "x"})],
        [PutOp(("ana", 5), "k", {"content": "x"})],  # type: ignore[arg-type]
        [SearchOp((), query="where?")],
    ):
        with pytest.raises(InvalidNamespaceError):
            store.batch(ops)
    with pytest.raises(ValueError):
        store.batch([PutOp(("ana",), "", {"content": "x"})])
    with pytest.raises(NotImplementedError):
        store.put(("ana",), "k", {"content": "x"}, ttl=5)
    assert client.calls == []
