"""The assembled Neo4j server: Bolt, APOC, Graph Data Science and Browser, for real."""

from __future__ import annotations

import httpx
import neo4j

from engram.settings import EngramSettings
from graph.gds import create_gds


def test_bolt_answers_with_neo4j_5_26(driver: neo4j.Driver) -> None:
    records, _, _ = driver.execute_query("CALL dbms.components() YIELD name, versions, edition RETURN *")
    assert records[0]["name"] == "Neo4j Kernel"
    assert records[0]["versions"][0].startswith("5.26.")
    assert records[0]["edition"] == "community"


def test_apoc_procedures_and_functions_run(driver: neo4j.Driver) -> None:
    records, _, _ = driver.execute_query(
        "RETURN apoc.version() AS version, apoc.text.join(['a', 'b'], '-') AS joined, "
        "apoc.coll.sort([3, 1, 2]) AS sorted"
    )
    assert records[0]["version"].startswith("5.26.")
    assert records[0]["joined"] == "a-b"
    assert records[0]["sorted"] == [1, 2, 3]
    records, _, _ = driver.execute_query("CALL apoc.help('periodic.iterate') YIELD name RETURN collect(name) AS n")
    assert "apoc.periodic.iterate" in records[0]["n"]


def test_pagerank_through_the_graphdatascience_client(driver: neo4j.Driver, space: str) -> None:
    # A star with one hub: every leaf points at the hub, the hub points at one leaf.
    driver.execute_query(
        """
        UNWIND range(1, 5) AS i
        MERGE (leaf:Concept {space: $space, id: 'leaf' + i})
        MERGE (hub:Concept {space: $space, id: 'hub'})
        MERGE (leaf)-[:ASSOCIATED]->(hub)
        WITH hub MATCH (first:Concept {space: $space, id: 'leaf1'}) MERGE (hub)-[:ASSOCIATED]->(first)
        """,
        space=space,
    )
    gds = create_gds(driver, "neo4j")
    graph, _ = gds.graph.cypher.project(
        "MATCH (s:Concept {space: $space})-[:ASSOCIATED]->(t:Concept {space: $space}) "
        "RETURN gds.graph.project($graph_name, s, t)",
        database="neo4j",
        space=space,
        graph_name=f"pr-{space}",
    )
    try:
        scores = gds.pageRank.stream(graph)
        ids = gds.util.asNodes(scores["nodeId"].tolist())
        ranking = [node["id"] for _, node in sorted(zip(scores["score"], ids, strict=True), key=lambda p: -p[0])]
    finally:
        graph.drop()
    assert ranking[0] == "hub"
    assert ranking[1] == "leaf1"  # the only node the hub points to
    assert set(ranking[2:]) == {"leaf2", "leaf3", "leaf4", "leaf5"}
    assert not gds.graph.exists(f"pr-{space}")["exists"]


def test_browser_is_served(settings: EngramSettings) -> None:
    response = httpx.get(f"http://127.0.0.1:{settings.neo4j.http_port}/browser/", timeout=10)
    assert response.status_code == 200
    assert "<title>Neo4j Browser</title>" in response.text
    # The SPA's bundle is there too, not just an index page.
    script = next(part.split('"')[0] for part in response.text.split('src="')[1:] if part.split('"')[0].endswith(".js"))
    bundle = httpx.get(f"http://127.0.0.1:{settings.neo4j.http_port}/browser/{script}", timeout=10)
    assert bundle.status_code == 200 and len(bundle.content) > 10_000


def test_server_listens_on_loopback_only(driver: neo4j.Driver) -> None:
    records, _, _ = driver.execute_query(
        "SHOW SETTINGS YIELD name, value WHERE name IN ['server.bolt.listen_address', 'server.http.listen_address', "
        "'server.default_listen_address'] RETURN name, value"
    )
    assert {r["name"]: r["value"].split(":")[0] for r in records} == {
        "server.bolt.listen_address": "127.0.0.1",
        "server.http.listen_address": "127.0.0.1",
        "server.default_listen_address": "127.0.0.1",
    }


def test_benchmarks_read_the_servers_memory(driver: neo4j.Driver, settings: EngramSettings) -> None:
    """bench/server_memory.py: heap (JMX), the page cache setting and, the server being local, its resident size."""
    from bench.server_memory import server_memory

    memory = server_memory(driver, settings.neo4j.database)
    assert 0 < float(memory["heap_used_mib"]) <= float(memory["heap_max_mib"])  # type: ignore[arg-type]
    assert str(memory["page_cache_setting"]).endswith("iB")
    resident = memory["resident_mib"]
    assert resident is not None and float(resident) > float(memory["heap_used_mib"])  # type: ignore[arg-type]


def test_cached_plans_are_not_replanned_every_few_seconds(driver: neo4j.Driver) -> None:
    """A store that ingests all the time keeps its counts moving: with Neo4j's 10 s default every statement was
    re-planned every few seconds under the soak's load (infra/neo4j/conf/neo4j.conf)."""
    records, _, _ = driver.execute_query(
        "SHOW SETTINGS YIELD name, value WHERE name = 'dbms.cypher.min_replan_interval' RETURN value"
    )
    assert records[0]["value"] in {"5m", "300s", "PT5M"}


def test_neo4j_routing_hands_back_this_servers_own_ports(settings: EngramSettings) -> None:
    """Browser connects with neo4j:// by default, and routing sends it to the advertised address: that must be this
    server's Bolt port (a stack on other ports, such as the test command's, advertised the default one)."""
    bolt = httpx.URL(settings.neo4j.uri)
    auth = (settings.neo4j.user, settings.neo4j.password.get_secret_value())
    with neo4j.GraphDatabase.driver(f"neo4j://{bolt.host}:{bolt.port}", auth=auth) as routed:
        records, _, _ = routed.execute_query("CALL dbms.routing.getRoutingTable({}) YIELD servers RETURN servers")
        addresses = {address for server in records[0]["servers"] for address in server["addresses"]}
        assert addresses == {f"127.0.0.1:{bolt.port}"}
        assert routed.execute_query("RETURN 1 AS one")[0][0]["one"] == 1
