"""The exported SDL matches the code, and every example operation is valid and exercised."""

from __future__ import annotations

import re

from app.api.schema.build import build_schema
from app.cli.api_commands import SCHEMA_FILE
from graphql import parse, validate
from tests.support.graphql_client import operation_files

TESTS_DIR = SCHEMA_FILE.parent.parent / "tests"


def test_schema_file_matches_the_code() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == str(build_schema()) + "\n", "run `engram schema` and commit"


def test_every_example_operation_is_valid_and_used_by_a_test() -> None:
    schema = build_schema()._schema
    test_sources = "\n".join(p.read_text(encoding="utf-8") for p in TESTS_DIR.rglob("test_*.py"))
    files = operation_files()
    assert len(files) >= 10
    for path in files:
        errors = validate(schema, parse(path.read_text(encoding="utf-8")))
        assert not errors, f"{path.name}: {errors}"
        assert re.search(rf"operation\(\"{path.stem}\"\)", test_sources), f"no test runs {path.name}"
