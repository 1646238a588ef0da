"""Bad input gets a clear error, the server stays up, and nothing is written."""

from __future__ import annotations

from collections.abc import Iterator

import neo4j
import pytest
from fastapi.testclient import TestClient

from app.api.server import create_app
from app.api.services import ApiServices
from engram.settings import EngramSettings
from graph.api_keys import ApiKeyStore
from tests.e2e.api.conftest import issue_key
from tests.support.graph_queries import label_counts
from tests.support.graphql_client import GraphQL, operation

HOSTILE_QUERIES = [
    '") OR 1=1 //',
    "MATCH (n) DETACH DELETE n",
    "'}) MATCH (n) DETACH DELETE n //",
    "title:foo AND * OR text:[* TO *] ~2 ^3 \\",
    "${jndi:ldap://x} <script>alert(1)</script>",
]


@pytest.fixture()
def strict(settings: EngramSettings, services: ApiServices) -> Iterator[TestClient]:
    """The app with tight limits, to reach them cheaply."""
    api = settings.api.model_copy(update={"rate_limit_per_minute": 3, "max_body_bytes": 2_000, "max_query_depth": 4})
    with TestClient(create_app(settings.model_copy(update={"api": api}), services)) as client:
        yield client


def test_hostile_query_text_is_only_text(
    gql: GraphQL, driver: neo4j.Driver, space: str, conversation: dict[str, object]
) -> None:
    gql.ingest([conversation])
    before = label_counts(driver, space)
    for text in HOSTILE_QUERIES:
        result = gql(operation("recall"), {"query": text})["recall"]
        assert result["__typename"] == "Recall"
    assert label_counts(driver, space) == before


def test_malformed_documents_and_wrong_types(gql: GraphQL) -> None:
    syntax = gql.raw("{ recall(query: ")
    assert syntax.status_code in (200, 400) and "Syntax Error" in syntax.json()["errors"][0]["message"]
    wrong_type = gql.errors(operation("recall"), {"query": 42})
    assert "String cannot represent a non string value" in wrong_type[0]["message"]
    bad_time = gql.errors(operation("recall"), {"query": "x", "asOf": "yesterday"})
    assert "DateTime" in bad_time[0]["message"] or "isoformat" in bad_time[0]["message"].lower()
    unknown_field = gql.errors("{ stats { secrets } }")
    assert "Cannot query field 'secrets'" in unknown_field[0]["message"]
    not_json = gql.http.post(
        "/graphql",
        content=b"{not json",
        headers={"content-type": "application/json", "authorization": f"Bearer {gql.key}"},
    )  # type: ignore[call-arg]
    assert not_json.status_code == 400
    assert gql(operation("stats"))["stats"]["episodes"] == 0  # still serving


def test_recall_limits_are_over_budget_not_errors(gql: GraphQL) -> None:
    over = gql(operation("recall"), {"query": "x", "tokenBudget": 1_000_000})["recall"]
    assert over == {"__typename": "OverBudget", "message": "tokenBudget must be between 16 and 32768, got 1000000"}
    long = gql(operation("recall"), {"query": "x" * 5000})["recall"]
    assert long["__typename"] == "OverBudget"
    blank = gql(operation("recall"), {"query": "   "})["recall"]
    assert blank["__typename"] == "InvalidInput"
    hops = gql('{ recall(query: "x", hopLimit: 9) { __typename ... on UserError { message } } }')["recall"]
    assert hops == {"__typename": "OverBudget", "message": "hopLimit must be between 1 and 4, got 9"}
    few = gql('{ recall(query: "x", hopLimit: 0) { __typename ... on InvalidInput { problems } } }')["recall"]
    assert few == {"__typename": "InvalidInput", "problems": ["hopLimit must be between 1 and 4, got 0"]}


def test_ingest_rejections_name_the_record_and_field(gql: GraphQL, driver: neo4j.Driver, space: str) -> None:
    records = [
        {"type": "document", "id": "ok", "text": "Fine."},
        {"type": "conversation", "id": "c1", "sessions": [{"id": "s", "turns": [{"speaker": "A", "txt": "typo"}]}]},
        {"type": "document", "id": "d2", "text": "x", "created_at": "not a date"},
    ]
    result = gql(operation("ingest"), {"records": records})["ingest"]
    assert result["__typename"] == "InvalidInput"
    problems = " | ".join(result["problems"])
    assert "record 2 (id 'c1')" in problems and "txt" in problems and "record 3 (id 'd2')" in problems
    both = gql(
        'mutation { ingest(input: {records: [], payload: ""}) { __typename ... on InvalidInput { problems } } }'
    )["ingest"]
    assert both["problems"] == ["give exactly one of `records` and `payload`"]
    jsonl = gql(
        'mutation { ingest(input: {payload: "{\\"type\\": \\"document\\"", format: JSONL}) '
        "{ __typename ... on InvalidInput { problems } } }"
    )["ingest"]
    assert jsonl["__typename"] == "InvalidInput" and "line 1" in jsonl["problems"][0]
    assert set(label_counts(driver, space)) <= {"Space", "ApiKey"}


def test_wrong_revoked_and_missing_keys(gql: GraphQL) -> None:
    wrong = gql.raw(operation("stats"), key="egk_0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
    assert wrong.status_code == 401 and wrong.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
    malformed = gql.raw(operation("stats"), key="letmein")
    assert malformed.status_code == 401
    missing = GraphQL(gql.http, None).errors(operation("stats"))
    assert missing[0]["extensions"]["code"] == "UNAUTHENTICATED"

    issued = gql(operation("api_keys"), {"label": "rotated"}, operation_name="CreateApiKey")["createApiKey"]
    assert gql(operation("stats"), key=issued["secret"])["stats"]["episodes"] == 0
    revoked = gql(operation("api_keys"), {"id": issued["key"]["id"]}, operation_name="RevokeApiKey")["revokeApiKey"]
    assert revoked["__typename"] == "ApiKey" and revoked["revokedAt"]
    assert gql.raw(operation("stats"), key=issued["secret"]).status_code == 401
    assert gql(operation("stats"))["stats"]["episodes"] == 0  # the other key still works


def test_admin_key_creates_spaces_and_nothing_else(
    gql: GraphQL, settings: EngramSettings, driver: neo4j.Driver, space: str
) -> None:
    admin = settings.api.admin_key.get_secret_value()
    assert admin, "infra/test.sh sets ENGRAM_API_ADMIN_KEY for the API under test"
    name = f"{space}-admin"
    try:
        created = gql(operation("create_space"), {"name": name}, key=admin)["createSpace"]
        assert created["__typename"] == "SpaceCreated"
        assert gql(operation("stats"), key=created["key"]["secret"])["stats"]["space"] == name
        # An existing space is a tenant's: the admin key gets no key into its data, only the answer that it exists.
        again = gql(operation("create_space"), {"name": name}, key=admin)["createSpace"]
        assert again == {"__typename": "SpaceExists", "space": name, "message": again["message"]}
        assert "already exists" in again["message"] and "no key" in again["message"]
        assert len(ApiKeyStore(driver, "neo4j").keys(name)) == 1
        invalid = gql(operation("create_space"), {"name": "Not A Slug!"}, key=admin)["createSpace"]
        assert invalid["__typename"] == "InvalidInput"
        assert gql.errors(operation("stats"), key=admin)[0]["extensions"]["code"] == "FORBIDDEN"
        assert gql.errors(operation("create_space"), {"name": "x"})[0]["extensions"]["code"] == "FORBIDDEN"
    finally:
        driver.execute_query("MATCH (n {space: $space}) DETACH DELETE n", space=name)


def test_limits_depth_aliases_tokens_body_and_rate(strict: TestClient, driver: neo4j.Driver, space: str) -> None:
    client = GraphQL(strict, issue_key(driver, space))
    deep = '{ episode(id: "x") { ... on Episode { source { episodes { edges { node { source { id } } } } } } } }'
    assert "exceeds maximum operation depth" in client.errors(deep)[0]["message"]
    aliases = "{ " + " ".join(f"a{i}: stats {{ episodes }}" for i in range(20)) + " }"
    assert "aliases" in client.errors(aliases)[0]["message"].lower()
    big = client.raw(operation("ingest"), {"records": [{"type": "document", "id": "big", "text": "x" * 5000}]})
    assert big.status_code == 413 and big.json()["errors"][0]["extensions"]["code"] == "PAYLOAD_TOO_LARGE"
    # 3 requests in a sliding minute for this key (the two above count).
    responses = [client.raw(operation("stats")) for _ in range(8)]
    limited = [r for r in responses if r.status_code == 429]
    # A sliding minute: what was sent this minute still counts for part of the next one, so the wait may pass 60 s.
    assert limited and 1 <= int(limited[0].headers["retry-after"]) <= 120
    assert limited[0].json()["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
    assert set(label_counts(driver, space)) <= {"Space", "ApiKey"}


def test_tokens_limit(gql: GraphQL) -> None:
    huge = "{ stats { " + " ".join(["episodes"] * 3000) + " } }"
    assert "token" in gql.errors(huge)[0]["message"].lower()


def test_introspection_only_in_development(gql: GraphQL, settings: EngramSettings, services: ApiServices) -> None:
    assert "introspection" in gql.errors("{ __schema { types { name } } }")[0]["message"].lower()
    assert gql.http.get("/graphql").status_code in (404, 405)  # no GraphiQL
    dev = settings.model_copy(update={"api": settings.api.model_copy(update={"development": True})})
    with TestClient(create_app(dev, services)) as client:
        types = GraphQL(client, gql.key)("{ __schema { types { name } } }")["__schema"]["types"]
        assert "Proposition" in {t["name"] for t in types}
        assert "graphiql" in client.get("/graphql", headers={"accept": "text/html"}).text.lower()


def test_unexpected_errors_are_masked_with_a_correlation_id(
    gql: GraphQL, settings: EngramSettings, services: ApiServices, caplog: pytest.LogCaptureFixture
) -> None:
    class BrokenRecall:
        def recall(self, request: object) -> object:
            raise RuntimeError("secret internal detail: bolt://10.0.0.1 password=hunter2")

    broken = ApiServices(**{**services.__dict__, "recall": BrokenRecall()})
    with TestClient(create_app(settings, broken)) as client:
        errors = GraphQL(client, gql.key).errors(operation("recall"), {"query": "x"})
    message = errors[0]["message"]
    assert "hunter2" not in message and "correlation id" in message
    correlation = errors[0]["extensions"]["correlationId"]
    assert any(correlation in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"query": "{ stats { episodes } }\xff\xfe"}', "not valid UTF-8"),
        (b'{"query": "{ stats { episodes } }", "variables": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "deeper"),
        (b'{"query": "subscription { jobProgress(id: \\"x\\") { __typename } }"}', "over WebSocket"),
    ],
    ids=["invalid-utf8", "deep-json", "subscription-over-post"],
)
def test_a_malformed_body_is_a_400_that_says_why(gql: GraphQL, body: bytes, says: str) -> None:
    response = gql.http.post(
        "/graphql",
        content=body,
        headers={"content-type": "application/json", "authorization": f"Bearer {gql.key}"},
    )  # type: ignore[call-arg]
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["extensions"]["code"] == "BAD_REQUEST" and says in error["message"]
    assert gql("{ stats { episodes } }")["stats"]["episodes"] == 0  # the server answers the next request
