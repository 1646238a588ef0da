"""graph/routing.py's `writes`: clauses and write procedures, not words in strings, comments, names or aliases. (Its
agreement with the server on every statement under cypher/ is tests/e2e/test_read_write_routing.py.)"""

from __future__ import annotations

import re

import pytest

from engram.settings import PROJECT_ROOT
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
        # An apostrophe in a comment starts no string (it once hid auth/revoke_key's SET, refusing every revocation).
        (
            "// a key's offspring go with it\nMATCH (k) SET k.revoked_at = datetime() // the owner's keys\nRETURN k",
            True,
        ),
        ("MATCH (n) WHERE n.url = 'https://example.org' SET n.seen = true", True),
    ],
)
def test_the_classifier_reads_clauses_not_words(statement: str, expected: bool) -> None:
    assert writes(statement) is expected


def test_every_statement_under_cypher_that_writes_is_classified_a_write() -> None:
    """Each file with a write clause outside its comments and strings is a write (the e2e test compares every file
    with the server's own query type; this one runs without a server)."""
    for path in sorted((PROJECT_ROOT / "cypher").rglob("*.cypher")):
        text = path.read_text(encoding="utf-8")
        code = "\n".join(line.split("//", 1)[0] for line in text.splitlines() if "'" not in line and '"' not in line)
        if re.search(r"\b(CREATE|MERGE|SET|DELETE|REMOVE|FOREACH)\b", code):
            assert writes(text), path.relative_to(PROJECT_ROOT)
