"""Reads in read transactions, writes in write transactions (graph/routing.py), so that a Neo4j cluster or Aura sends
reads to its secondaries; and `neo4j://` (routing) with bookmarks shared through Redis, against the test server.

The classifier is checked against the server itself: `EXPLAIN` of every statement under cypher/ gives the server's
query type (r: read; rw, w, s: it writes), and the two must agree. A statement classified a read is sent as a READ,
and a server refuses a write in a read transaction: so a write misclassified would fail here, and in every test
that runs it."""

from __future__ import annotations

import re
import uuid

import neo4j
import pytest
import redis

from engram.settings import EngramSettings, Neo4jSettings
from graph.cypher import CYPHER_DIR, load, split_statements
from graph.driver import create_driver
from graph.routing import BOOKMARKS, WriteInReadTransaction, writes

pytestmark = pytest.mark.e2e

STATEMENT_FILES = sorted(str(p.relative_to(CYPHER_DIR).with_suffix("")) for p in CYPHER_DIR.rglob("*.cypher"))
# Files other statements include (`// include <name>`, graph/cypher.py): fragments, not statements.
INCLUDED = {
    m.group(1)
    for p in CYPHER_DIR.rglob("*.cypher")
    for m in re.finditer(r"^\s*// include ([\w/]+)\s*$", p.read_text(), re.M)
}
# A template's places (`{label}`, `{index}`: filled in by the module that runs it) given a name.
PLACE = re.compile(r"\{(\w+)\}")


def _statements() -> list[tuple[str, str]]:
    return [
        (name, PLACE.sub(lambda m: f"Probe{m.group(1).title()}", statement))
        for name in STATEMENT_FILES
        if name not in INCLUDED
        for statement in split_statements(load(name))
    ]


def test_every_statement_is_classified_as_the_server_classifies_it(driver: neo4j.Driver) -> None:
    """EXPLAIN's query type: r (read), rw / w (writes), s (schema, or a DBMS procedure). A statement the classifier
    calls a read and the server an `s` must run in a read transaction: it is run there (they are DBMS reads)."""
    statements = _statements()
    assert len(statements) > 180
    disagree, dbms_reads = [], []
    with driver.session() as session:
        for name, statement in statements:
            kind = session.run(f"EXPLAIN {statement}").consume().query_type  # type: ignore[arg-type]
            assert kind in {"r", "rw", "w", "s"}, (name, kind)
            if kind == "s" and not writes(statement):
                dbms_reads.append(statement)
            elif writes(statement) != (kind != "r"):
                disagree.append(f"{name}: the server says {kind}")
    assert not disagree, disagree
    assert dbms_reads  # system/components, the JMX reads: prove they run as reads
    for statement in dbms_reads:
        driver.execute_query(statement, routing_=neo4j.RoutingControl.READ)


def test_a_read_is_sent_as_a_read_and_the_server_refuses_a_write_there(driver: neo4j.Driver, space: str) -> None:
    # A write hidden from the classifier (in a string, run by a read-only procedure): routed as a read, so the server
    # refuses it. Proves that a statement named no routing runs in a read transaction.
    hidden = (
        "CALL apoc.cypher.run('CREATE (:Probe {space: $space}) RETURN 1 AS one', {space: $space}) YIELD value "
        "RETURN value"
    )
    with pytest.raises(neo4j.exceptions.Neo4jError) as refused:
        driver.execute_query(hidden, space=space)
    assert "overridden by READ" in str(refused.value) or "AccessMode" in str(refused.value.code), refused.value
    with pytest.raises(WriteInReadTransaction):  # a write sent as a read is refused before it leaves
        driver.execute_query("CREATE (:Probe {space: $space})", space=space, routing_=neo4j.RoutingControl.READ)
    driver.execute_query("CREATE (:Probe {space: $space})", space=space)  # a write goes to the writer
    records, _, _ = driver.execute_query("MATCH (p:Probe {space: $space}) RETURN count(p) AS n", space=space)
    assert records[0]["n"] == 1


def test_neo4j_routing_uri_with_bookmarks_shared_between_processes(settings: EngramSettings, space: str) -> None:
    """Two drivers, as two hosts would have (a worker writing, an API reading), on `neo4j://` against the one test
    server: the writer's commit puts its bookmark in Redis, the reader begins after it and sees the write."""
    bolt = settings.neo4j.uri.split("://", 1)[1]
    routed = Neo4jSettings(**{**settings.neo4j.model_dump(), "uri": f"neo4j://{bolt}"})
    client = redis.Redis.from_url(settings.redis.url)
    writer, reader = create_driver(routed, settings.redis.url), create_driver(routed, settings.redis.url)
    try:
        marker = uuid.uuid4().hex
        with writer.session(database=settings.neo4j.database) as session:
            session.execute_write(lambda tx: tx.run("CREATE (:Probe {space: $s, m: $m})", s=space, m=marker).consume())
        written = set(writer.execute_query_bookmark_manager.get_bookmarks())
        shared = {raw.decode() for raw in client.smembers(BOOKMARKS)}  # type: ignore[union-attr]
        assert written and written <= shared
        assert written <= set(reader.execute_query_bookmark_manager.get_bookmarks())
        with reader.session(database=settings.neo4j.database, default_access_mode=neo4j.READ_ACCESS) as session:
            found = session.run("MATCH (p:Probe {space: $s, m: $m}) RETURN count(p) AS n", s=space, m=marker).single()
        assert found is not None and found["n"] == 1
        records, _, _ = reader.execute_query("MATCH (p:Probe {space: $s}) RETURN count(p) AS n", s=space)
        assert records[0]["n"] == 1
        # The reader's write replaces the bookmarks it began with: the set stays about one per concurrent writer.
        reader.execute_query("MATCH (p:Probe {space: $s}) SET p.seen = true", s=space)
        assert not written & {raw.decode() for raw in client.smembers(BOOKMARKS)}  # type: ignore[union-attr]
    finally:
        writer.close()
        reader.close()
        client.close()
