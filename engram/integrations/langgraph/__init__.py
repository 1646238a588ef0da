"""A LangGraph `BaseStore` on Engram (`pip install engram[langgraph]`): docs/integrations.md.

from engram.integrations.langgraph import EngramStore

store = EngramStore(url="http://127.0.0.1:8000", api_key="egk_...")
store.put(("ana", "trip"), "diet", {"content": "I am vegetarian."})
store.search(("ana",), query="What does Ana eat?")  # Engram's recall, with provenance
"""

from engram.integrations.langgraph.namespaces import DEFAULT_LAYOUT, Namespaces, Scope
from engram.integrations.langgraph.ops import EngramError
from engram.integrations.langgraph.store import EngramStore
from engram.integrations.langgraph.values import DEFAULT_TEXT_FIELDS

__all__ = ["DEFAULT_LAYOUT", "DEFAULT_TEXT_FIELDS", "EngramError", "EngramStore", "Namespaces", "Scope"]
