"""graph/routing.py's `writes`: clauses and write procedures, not words in strings, comments, names or aliases. (Its
agreement with the server on every statement under cypher/ is tests/e2e/test_read_write_routing.py.)"""

from __future__ import annotations

import pytest

from graph.routing import writes


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("MATCH (n:Memory {space: $space}) RETURN n.set AS set, $delete AS d", False),
        ("MATCH (n) WHERE n.text = 'CREATE a thing; DELETE it' RETURN n // MERGE nothing", False),
        ("MATCH (n) RETURN {remove: 1, merge: 2} AS m", False),
        ("MATCH (n) SET n.x = 1", True),
        ("MATCH (n) DETACH DELETE n", True),
        ("UNWIND $rows AS r MERGE (n:X {id: r.id}) ON CREATE SET n.t = 1", True),
        ("MATCH (n) CALL db.create.setNodeVectorProperty(n, 'v', $v) RETURN 1", True),
        ("CALL apoc.periodic.iterate('MATCH (n) RETURN n', 'DELETE n', {})", True),
    ],
)
def test_the_classifier_reads_clauses_not_words(statement: str, expected: bool) -> None:
    assert writes(statement) is expected
