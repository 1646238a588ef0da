"""The bad-input catalogue: every entry is tried against the real service (GraphQL in-process, the `engram` CLI,
files), answered with a clear error, and writes nothing. The table in docs/api.md ("Bad input: the catalogue")
lists the same entries; a test keeps the two equal."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import neo4j
import pytest

from engram.settings import PROJECT_ROOT, EngramSettings
from graph.api_keys import ApiKeyStore, KeyRole
from tests.support.cli import engram
from tests.support.graph_queries import label_counts
from tests.support.graphql_client import GraphQL, operation

WRONG_KEY = "egk_0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
DOC = {"type": "document", "id": "d1", "text": "Fine."}


@dataclass(frozen=True)
class Probe:
    """What a catalogue entry runs against: the test's client (its owner key opens a fresh, empty space), the admin
    key, that space's name, a folder for files, and a reader key of the space."""

    gql: GraphQL
    admin: str
    space: str
    folder: Path
    reader: str

    @property
    def owner_key_id(self) -> str:
        return (self.gql.key or "").removeprefix("egk_").split(".", 1)[0]


@dataclass(frozen=True)
class BadInput:
    surface: str  # GraphQL, CLI or file
    given: str  # what is sent, in a few words (the table's "input" column, docs/api.md)
    answer: str  # a fragment of the error the caller reads (the table's "answer" column)
    run: Callable[[Probe], str]  # sends it; returns the whole answer (HTTP status and body, or CLI output)


def _http(response: Any) -> str:
    return f"HTTP {response.status_code} {response.text}"


def _graphql(query: str, variables: dict[str, Any] | None = None, key: str | None = None) -> Callable[[Probe], str]:
    return lambda probe: _http(probe.gql.raw(query, variables, key=key))


def _op(name: str, variables: dict[str, Any]) -> Callable[[Probe], str]:
    return lambda probe: _http(probe.gql.raw(operation(name), variables))


def _ingest(*records: dict[str, Any]) -> Callable[[Probe], str]:
    return _op("ingest", {"records": list(records)})


def _conversation(*sessions: dict[str, Any]) -> dict[str, Any]:
    return {"type": "conversation", "id": "c1", "sessions": list(sessions)}


def _session(session_id: str, *turns: dict[str, Any]) -> dict[str, Any]:
    return {"id": session_id, "turns": list(turns)}


def _turn(text: str, turn_id: str | None = None, speaker: str = "Ana") -> dict[str, Any]:
    return {"speaker": speaker, "text": text} | ({"id": turn_id} if turn_id else {})


def _cli(*args: str) -> Callable[[Probe], str]:
    def run(probe: Probe) -> str:
        done = engram(*(probe.space if a == "{space}" else a for a in args), key=probe.gql.key)
        return f"exit {done.returncode} {' '.join((done.stdout + done.stderr).split())}"

    return run


def _file(name: str, content: str, *options: str) -> Callable[[Probe], str]:
    def run(probe: Probe) -> str:
        path = probe.folder / name
        path.write_text(content)
        return _cli("ingest", str(path), "--space", "{space}", *options)(probe)

    return run


def _body(content: bytes) -> Callable[[Probe], str]:
    headers = {"content-type": "application/json"}
    return lambda p: _http(
        p.gql.http.post(
            "/graphql",
            content=content,
            headers=headers
            | {  # type: ignore[call-arg]
                "authorization": f"Bearer {p.gql.key}"
            },
        )
    )


DEEP = "[" * 100_000 + "]" * 100_000


def _admin(query: str, variables: dict[str, Any]) -> Callable[[Probe], str]:
    return lambda probe: _http(probe.gql.raw(query, variables, key=probe.admin))


def _reader(query: str, variables: Callable[[Probe], dict[str, Any]]) -> Callable[[Probe], str]:
    return lambda probe: _http(probe.gql.raw(query, variables(probe), key=probe.reader))


MINT = "mutation($role: ApiKeyRole) { createApiKey(role: $role) { secret } }"
REVOKE = "mutation($id: ID!) { revokeApiKey(id: $id) { __typename } }"


CATALOGUE = [
    BadInput("GraphQL", "a query that does not parse", "Syntax Error", _graphql("{ recall(query: ")),
    BadInput("GraphQL", "a number where text is expected", "String cannot represent a non string value",
             _op("recall", {"query": 42})),
    BadInput("GraphQL", "asOf that is not a date-time", "DateTime must be an ISO 8601 date-time",
             _op("recall", {"query": "x", "asOf": "yesterday"})),
    BadInput("GraphQL", "knownAt that is not a date-time", "DateTime must be an ISO 8601 date-time",
             _graphql('{ recall(query: "x", knownAt: "yesterday") { __typename } }')),
    BadInput("GraphQL", "an unknown recall recipe", "unknown recipe 'slowest'",
             _op("recall", {"query": "x", "recipe": "slowest"})),
    BadInput("GraphQL", "remember of a text with a lone surrogate", "remember.text ($t): a lone surrogate (U+D800)",
             _body(b'{"query": "mutation($t: String!) { remember(text: $t) { __typename } }", '
                   b'"variables": {"t": "I live in \\ud800 Porto"}}')),
    BadInput("GraphQL", "forget of a lone surrogate session", "forget.input.session ($s): a lone surrogate",
             _body(b'{"query": "mutation($s: String) { forget(input: {session: $s}) { __typename } }", '
                   b'"variables": {"s": "\\udc00"}}')),
    BadInput("GraphQL", "a field that does not exist", "Cannot query field 'secrets'",
             _graphql("{ stats { secrets } }")),
    BadInput("GraphQL", "a body that is not JSON", "HTTP 400", _body(b"{not json")),
    BadInput("GraphQL", "a body that is not UTF-8", "not valid UTF-8",
             _body(b'{"query": "{ stats { episodes } }\xff"}')),
    BadInput("GraphQL", "a body nested 100,000 levels deep", "nested deeper than 64 levels",
             _body(b'{"query": "{ stats { episodes } }", "variables": ' + DEEP.encode() + b"}")),
    BadInput("GraphQL", "a subscription over HTTP POST", "subscriptions are served over WebSocket",
             _body(b'{"query": "subscription { jobProgress(id: \\"x\\") { __typename } }"}')),
    BadInput("GraphQL", "a token budget of 1,000,000", "tokenBudget must be between 16 and 32768, got 1000000",
             _op("recall", {"query": "x", "tokenBudget": 1_000_000})),
    BadInput("GraphQL", "a 5,000-character query", "OverBudget", _op("recall", {"query": "x" * 5000})),
    BadInput("GraphQL", "a blank query", "InvalidInput", _op("recall", {"query": "   "})),
    BadInput("GraphQL", "an empty asker", "asker must contain at least one non-space character",
             _op("recall", {"query": "What is my cat called?", "asker": ""})),
    BadInput("GraphQL", "a now that is not a time", "two weeks ago",
             _op("recall", {"query": "What did I do two weeks ago?", "now": "two weeks ago"})),
    BadInput("GraphQL", "hopLimit 9", "hopLimit must be between 1 and 4, got 9",
             _graphql('{ recall(query: "x", hopLimit: 9) { __typename ... on UserError { message } } }')),
    BadInput("GraphQL", "a profile of a 201-character user", "user: at most 200 characters, got 201",
             _op("profile", {"user": "x" * 201})),
    BadInput("GraphQL", "Cypher in the query text", '"__typename":"Recall"',
             _op("recall", {"query": "'}) MATCH (n) DETACH DELETE n //"})),
    BadInput("GraphQL", "a wrong API key", "UNAUTHENTICATED", _graphql(operation("stats"), key=WRONG_KEY)),
    BadInput("GraphQL", "a key that is not a key", "HTTP 401", _graphql(operation("stats"), key="letmein")),
    BadInput("GraphQL", "no API key", "UNAUTHENTICATED",
             lambda p: _http(GraphQL(p.gql.http, None).raw(operation("stats")))),
    BadInput("GraphQL", "the admin key on a tenant's data", "FORBIDDEN",
             lambda p: _http(p.gql.raw(operation("stats"), key=p.admin))),
    BadInput("GraphQL", "createSpace with a tenant's key", "FORBIDDEN", _op("create_space", {"name": "x"})),
    BadInput("GraphQL", "createSpace with a name that is not a slug", "InvalidInput",
             _admin(operation("create_space"), {"name": "Not A Slug!"})),
    BadInput("GraphQL", "createSpace with a 201-character key label", "at most 200 characters",
             _admin('mutation($l: String!) { createSpace(name: "labelled", keyLabel: $l) { __typename '
                    "... on InvalidInput { problems } } }", {"l": "x" * 201})),
    BadInput("GraphQL", "createApiKey with a 201-character label", "at most 200 characters",
             _graphql("mutation($l: String!) { createApiKey(label: $l) { secret } }", {"l": "x" * 201})),
    BadInput("GraphQL", "two different keys in one request", "two different keys",
             lambda p: _http(p.gql.http.post("/graphql", json={"query": "{ stats { episodes } }"}, headers={
                 "authorization": f"Bearer {p.gql.key}", "x-api-key": WRONG_KEY}))),
    BadInput("GraphQL", "a reader key writing memory", "this operation needs a writer key",
             _reader(operation("ingest"), lambda p: {"records": [DOC]})),
    BadInput("GraphQL", "a reader key minting a writer key", "cannot mint a key of role writer",
             _reader(MINT, lambda p: {"role": "WRITER"})),
    BadInput("GraphQL", "a reader key revoking the owner's key", "out of this key's reach",
             _reader(REVOKE, lambda p: {"id": p.owner_key_id})),
    BadInput("GraphQL", "introspection outside development", "introspection",
             _graphql("{ __schema { types { name } } }")),
    BadInput("GraphQL", "an unknown job id", "NotFound", _op("job", {"id": "job_does_not_exist"})),
    BadInput("GraphQL", "following an unknown node", "NotFound",
             _op("follow", {"nodeId": "prop_does_not_exist", "linkType": "PROVEN_BY"})),
    BadInput("GraphQL", "forgetting an unknown episode", '"notFound":["ep_does_not_exist"]',
             _op("forget", {"episodeIds": ["ep_does_not_exist"]})),
    BadInput("GraphQL", "correcting an unknown proposition", "NotFound",
             _op("correct", {"propositionId": "prop_does_not_exist", "text": "new"})),
    BadInput("GraphQL ingest", "a misspelt field (txt)", "record 1 (id 'c1')",
             _ingest(_conversation(_session("s", {"speaker": "A", "txt": "typo"})))),
    BadInput("GraphQL ingest", "created_at that is not a date", "record 1 (id 'd2')",
             _ingest({"type": "document", "id": "d2", "text": "x", "created_at": "not a date"})),
    BadInput("GraphQL ingest", "both records and payload", "give exactly one of",
             _graphql('mutation { ingest(input: {records: [], payload: ""}) '
                      "{ __typename ... on InvalidInput { problems } } }")),
    BadInput("GraphQL ingest", "a JSONL payload cut short", "line 1",
             _graphql('mutation { ingest(input: {payload: "{\\"type\\": \\"document\\"", format: JSONL}) '
                      "{ __typename ... on InvalidInput { problems } } }")),
    BadInput("GraphQL ingest", "an unknown record type", "record 1 (id 'p')", _ingest({"type": "podcast", "id": "p"})),
    BadInput("GraphQL ingest", "two turns with one id", "duplicate turn id 'T1'",
             _ingest(_conversation(_session("s", _turn("a", "T1"), _turn("b", "T1"))))),
    BadInput("GraphQL ingest", "two sessions with one id", "duplicate session id 's'",
             _ingest(_conversation(_session("s", _turn("a")), _session("s", _turn("b"))))),
    BadInput("GraphQL ingest", "a turn of 20,001 characters", "at most 20000 characters",
             _ingest(_conversation(_session("s", _turn("x" * 20_001))))),
    BadInput("GraphQL ingest", "an empty speaker", "sessions.0.turns.0.speaker",
             _ingest(_conversation(_session("s", _turn("hi", speaker=""))))),
    BadInput("CLI", "engram ingest into the space x' OR 1=1 //", "invalid space name",
             lambda p: _cli("ingest", str(PROJECT_ROOT / "examples" / "sample.jsonl"), "--space", "x' OR 1=1 //")(p)),
    BadInput("CLI", "engram ingest of a file that does not exist", "does not exist",
             _cli("ingest", "/nonexistent/memories.jsonl", "--space", "{space}")),
    BadInput("CLI", "engram recall with a 2,001-character query", "query must be at most 2000 characters, got 2001",
             _cli("recall", "x" * 2001, "--space", "{space}")),
    BadInput("CLI", "engram recall --hops 9", "hopLimit must be between 1 and 4, got 9",
             _cli("recall", "x", "--space", "{space}", "--hops", "9")),
    BadInput("CLI", "engram recall --budget -5", "tokenBudget must be between 16 and 32768, got -5",
             _cli("recall", "x", "--space", "{space}", "--budget", "-5")),
    BadInput("file", "a JSONL line cut short", "line 2: not valid JSON",
             _file("bad.jsonl", json.dumps(DOC) + '\n{"type": "document", "id": "d"\n')),
    BadInput("file", "an unknown record type on line 2", "line-record 2 (id 'p')",
             _file("bad.jsonl", json.dumps(DOC) + '\n{"type": "podcast", "id": "p"}\n')),
    BadInput("file", "a JSON file nested 100,000 levels deep", "JSON nested deeper than 64 levels",
             _file("deep.json", DEEP)),
    BadInput("file", "a JSON file holding a number", "a JSON payload must be a record object or a list of records",
             _file("bad.json", "42")),
]  # fmt: skip


@pytest.mark.parametrize("entry", CATALOGUE, ids=[f"{e.surface}: {e.given}" for e in CATALOGUE])
def test_each_bad_input_gets_a_clear_answer_and_writes_nothing(
    entry: BadInput, gql: GraphQL, settings: EngramSettings, driver: neo4j.Driver, space: str, tmp_path: Path
) -> None:
    reader = ApiKeyStore(driver, "neo4j").issue(space, "reader", KeyRole.READER).secret
    keys_before = [k.model_dump() for k in ApiKeyStore(driver, "neo4j").keys(space)]
    before = label_counts(driver, space)
    answer = entry.run(Probe(gql, settings.api.admin_key.get_secret_value(), space, tmp_path, reader))
    assert entry.answer in answer, answer[:2000]
    assert "Traceback" not in answer and "Internal" not in answer
    assert label_counts(driver, space) == before
    assert [k.model_dump() for k in ApiKeyStore(driver, "neo4j").keys(space)] == keys_before  # none revoked either


def _documented_rows() -> list[tuple[str, str, str]]:
    text = (PROJECT_ROOT / "docs" / "api.md").read_text()
    section = text.split("### Bad input: the catalogue", 1)[1].split("\n#", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| surface")]
    cells = [[cell.strip().strip("`") for cell in row.strip("|").split(" | ")] for row in rows]
    return [(c[0], c[1], c[2]) for c in cells if not re.fullmatch(r"-+", c[0])]


def test_the_api_docs_list_the_catalogue() -> None:
    assert len(CATALOGUE) >= 30
    assert _documented_rows() == [(e.surface, e.given, e.answer) for e in CATALOGUE]
