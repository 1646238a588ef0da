"""Small modules with one job each: no product module over 500 lines and no function over 80 (app/, graph/, workers/,
engram/; bench/ scripts and generated clients are outside this rule)."""

from __future__ import annotations

import ast

from engram.settings import PROJECT_ROOT

FLOORS = ("app", "graph", "workers", "engram")
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def _modules() -> list[tuple[str, str]]:
    return [
        (str(path.relative_to(PROJECT_ROOT)), path.read_text(encoding="utf-8"))
        for floor in FLOORS
        for path in sorted((PROJECT_ROOT / floor).rglob("*.py"))
    ]


def test_no_module_is_over_500_lines() -> None:
    long = {name: text.count("\n") for name, text in _modules() if text.count("\n") > MAX_MODULE_LINES}
    assert long == {}


def test_no_function_is_over_80_lines() -> None:
    long = {
        f"{name}:{node.name}": node.end_lineno - node.lineno + 1
        for name, text in _modules()
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    }
    assert long == {}
