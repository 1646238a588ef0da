"""The generated Python client (clients/python) runs every operation in graphql/operations/ against the stack's API:
the sync client over HTTP, the async one over HTTP and graphql-transport-ws (the job progress subscription)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

import httpx
import neo4j
from engram_client import AsyncEngramClient, EngramClient, JobState, LinkType, MemoryKind

from engram.settings import EngramSettings
from graphql import OperationDefinitionNode, parse
from tests.support.graphql_client import operation_files


def _operation_methods() -> set[str]:
    """The client method of each operation: its name in snake case (ariadne-codegen's rule)."""
    names = set()
    for path in operation_files():
        for definition in parse(path.read_text(encoding="utf-8")).definitions:
            if isinstance(definition, OperationDefinitionNode) and definition.name:
                names.add(re.sub(r"(?<!^)(?=[A-Z])", "_", definition.name.value).lower())
    return names


class Recorded:
    """Records which operations a client ran, so the test proves it ran every one."""

    def __init__(self, client: Any, ran: set[str]) -> None:
        self._client = client
        self._ran = ran

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self._client, name)

        def run(*args: Any, **kwargs: Any) -> Any:
            self._ran.add(name)
            return method(*args, **kwargs)

        return run


async def _follow_job(url: str, ws_url: str, key: str, job_id: str, ran: set[str]) -> list[JobState]:
    async with AsyncEngramClient(
        url=url, headers={"Authorization": f"Bearer {key}"}, ws_url=ws_url, ws_connection_init_payload={"apiKey": key}
    ) as client:
        ran.add("job_progress")
        states = [event.job_progress.state async for event in client.job_progress(id=job_id)]
        ran.add("stats")
        assert (await client.stats()).stats.episodes == 6  # the async client over HTTP too
        return states


def client_for(url: str, key: str) -> EngramClient:
    """The sync client with `key`; a minute per request, not httpx's 5 s, so a busy test machine fails nothing."""
    headers = {"Authorization": f"Bearer {key}"}
    return EngramClient(url=url, headers=headers, http_client=httpx.Client(headers=headers, timeout=60))


def _wait(client: Any, job_id: str) -> None:
    deadline = time.monotonic() + 300
    while (state := client.job(id=job_id).job.state) not in (JobState.SUCCEEDED, JobState.FAILED):
        assert time.monotonic() < deadline, f"job {job_id} still {state}"
        time.sleep(0.3)
    assert state == JobState.SUCCEEDED


def _one_users_memory(client: Any) -> None:
    """A user's memory through the client: remember a plain string, recall, list, export, forget the whole user."""
    job = client.remember("I keep my red bike in the garden shed.", user="ana", id="bike").remember
    assert job.typename__ == "Job" and [(s.external_id, [e.external_id for e in s.episodes]) for s in job.sources] == [
        ("remember/default", ["bike"])
    ]
    _wait(client, job.id)
    mine = client.recall(query="Where is the bike?", user="ana").recall
    assert any("bike" in item.text for item in mine.items)
    assert not any("bike" in item.text for item in client.recall(query="Where is the bike?").recall.items)
    listed = client.memories(user="ana", kinds=[MemoryKind.EPISODE]).memories
    assert [(e.node.text, e.node.origins[0].episode_external_id) for e in listed.edges] == [
        ("ana: I keep my red bike in the garden shed.", "bike")
    ]
    assert [e.node.external_id for e in client.sources(user="ana").sources.edges] == ["remember/default"]
    exported = client.export(user="ana").export
    assert exported.records == 1 and exported.end_cursor is None and "garden shed" in exported.jsonl
    assert [u.user for u in client.users().users] == ["ana"]
    profile = client.profile(user="ana").profile
    assert profile.typename__ == "Profile" and profile.user == "ana"
    nobody = client.profile(user="nobody").profile
    assert nobody.typename__ == "Profile" and nobody.subjects == []  # an unknown user: an empty profile
    gone = client.forget(user="ana").forget
    assert gone.typename__ == "Forgotten" and gone.episodes_removed == 1
    assert client.sources(user="ana").sources.total_count == 0


def test_the_generated_client_runs_every_operation(
    settings: EngramSettings, driver: neo4j.Driver, space: str, conversation: dict[str, Any]
) -> None:
    host = f"{settings.api.host}:{settings.api.port}"
    url, ws_url = f"http://{host}/graphql", f"ws://{host}/graphql"
    admin_key = settings.api.admin_key.get_secret_value()
    assert admin_key, "infra/test.sh sets ENGRAM_API_ADMIN_KEY for the API under test"
    ran: set[str] = set()
    name = f"{space}-client"
    try:
        with client_for(url, admin_key) as admin:
            created = Recorded(admin, ran).create_space(name=name).create_space
        assert created.typename__ == "SpaceCreated" and created.key.secret.startswith("egk_")
        key = created.key.secret
        with client_for(url, key) as raw:
            client = Recorded(raw, ran)
            assert client.stats().stats.episodes == 0
            job = client.ingest(records=[conversation]).ingest
            assert job.typename__ == "Job"
            states = asyncio.run(asyncio.wait_for(_follow_job(url, ws_url, key, job.id, ran), timeout=300))
            assert states[-1] == JobState.SUCCEEDED
            assert client.job(id=job.id).job.state == JobState.SUCCEEDED
            vectors = client.export_vectors(first=1000).export_vectors
            assert vectors.end_cursor is None and vectors.nodes == vectors.total_nodes > 0
            assert '"embedding"' in vectors.jsonl

            recall = client.recall(query="What did Melanie paint?", limit=5).recall
            assert recall.typename__ == "Recall"
            painted = next(item for item in recall.items[:3] if "sunrise" in item.text)
            evidence = painted.provenance[0]
            assert evidence.external_id == "D1:4" and evidence.occurred_at is not None
            associated = client.associate(utterance="I feel like painting a sunrise again", limit=5).associate
            assert associated.typename__ == "Associations"
            assert any("sunrise" in found.item.text and found.why for found in associated.associations)
            source = client.source_episodes(id=evidence.source_id).node
            assert source is not None and source.episodes.total_count == 4
            proofs = client.follow(node_id=painted.id, link_type=LinkType.PROVEN_BY).follow
            assert evidence.episode_id in {link.node.id for link in proofs.links if link.node}
            concepts = painted.node.concepts if painted.node and hasattr(painted.node, "concepts") else []
            assert concepts, "a proposition mentions concepts"
            page = client.concept_page(key=concepts[0].key).concept
            assert page.typename__ == "ConceptPage" and page.propositions.total_count >= 1
            assert client.dimensions().dimensions.total_count == 0  # none until consolidation runs

            fixed = client.correct(proposition_id=painted.id, text="Melanie painted a sunrise over Lake Tahoe.").correct
            assert fixed.typename__ == "Corrected" and fixed.supersedes_id == painted.id
            chain = client.history(proposition_id=fixed.proposition_id).history
            assert chain.typename__ == "History" and [s.proposition_id for s in chain.replaced] == [painted.id]
            shown = client.memory(id=painted.id).node
            assert shown is not None and shown.typename__ == "Proposition" and shown.status == "SUPERSEDED"
            gone = client.forget(episode_ids=[evidence.episode_id]).forget
            assert gone.typename__ == "Forgotten" and gone.episode_ids == [evidence.episode_id]

            issued = client.create_api_key(label="rotated").create_api_key
            assert issued.key.id in {k.id for k in client.api_keys().api_keys}
            revoked = client.revoke_api_key(id=issued.key.id).revoke_api_key
            assert revoked.typename__ == "ApiKey" and revoked.revoked_at is not None
            _one_users_memory(client)
        deleted = Recorded(client_for(url, admin_key), ran).delete_space(name=name).delete_space
        assert deleted.typename__ == "SpaceDeleted" and deleted.space == name
    finally:
        driver.execute_query("MATCH (n {space: $space}) DETACH DELETE n", space=name)
    assert ran == _operation_methods(), f"operations not run by the client: {_operation_methods() - ran}"
