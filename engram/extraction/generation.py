"""What both language-model backends share (engram/extraction/llm.py, engram/extraction/openai_server.py): the
generate function's shape and the schema they constrain generation with, without the bounds that make compiling the
constraint explode."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# (prompt, max_new_tokens, attempt) -> the model's text; attempt 0 is greedy, later ones sample.
GenerateFn = Callable[[str, int, int], str]
BOUND_KEYWORDS = frozenset({"maxLength", "maxItems", "maxProperties"})


def loose_schema(schema: Any) -> Any:
    """`schema` without upper bounds on lengths and sizes (what makes constraint compilation explode)."""
    if isinstance(schema, dict):
        return {k: loose_schema(v) for k, v in schema.items() if k not in BOUND_KEYWORDS}
    if isinstance(schema, list):
        return [loose_schema(v) for v in schema]
    return schema
