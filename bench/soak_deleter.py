"""The soak's deleting tenant: it ingests users' conversations and, while their jobs run, forgets those users or
deletes its whole space, over and over; after each deletion, once the jobs it stopped have settled, it counts what of
the deleted scope came back: nodes in Neo4j and keys in Redis (`resurrected`, which must stay 0).

Alone against the running stack (the soak runs it beside its other tenants):

    ~/.cache/engram/venv/bin/python -m bench.soak_deleter [--minutes 10]

Writes bench/results/soak_deleter.json. Needs the stack running (`make up`) and ENGRAM_API_ADMIN_KEY.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import redis

from bench.common import git_commit, write_result
from engram.scope import memory_space
from engram.settings import get_settings
from graph.driver import get_driver

INGEST = """mutation($records: JSON!) { ingest(input: {records: $records}) { __typename ... on Job { id } } }"""
FORGET_USER = """mutation($user: String!) { forget(user: $user) { __typename ... on Forgotten { stoppedJobIds } } }"""
DELETE_SPACE = (
    """mutation($n: String!) { deleteSpace(name: $n) { __typename ... on SpaceDeleted { stoppedJobIds } } }"""
)
CREATE_SPACE = (
    """mutation($n: String!) { createSpace(name: $n) { __typename ... on SpaceCreated { key { secret } } } }"""
)
JOB = """query($id: ID!) { job(id: $id) { __typename ... on Job { state } } }"""
WORDS = ["harbour", "violin", "orchard", "glacier", "lantern", "meadow", "quarry", "beacon", "thicket", "canyon"]
SETTLE_S = 120  # after a deletion: how long the stopped jobs' stages may still run (a write part, a retry)


@dataclass
class DeleterReport:
    deletions: dict[str, int] = field(default_factory=lambda: {"forget_user": 0, "delete_space": 0})
    stopped_jobs: int = 0
    resurrected_nodes: int = 0
    resurrected_redis_keys: int = 0
    failures: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "deletions": self.deletions,
            "stopped_jobs": self.stopped_jobs,
            "resurrected_nodes": self.resurrected_nodes,
            "resurrected_redis_keys": self.resurrected_redis_keys,
            "failures": self.failures[:50],
        }


def _conversation(rng: random.Random, user: str, turns: int) -> dict[str, Any]:
    said = [
        {"speaker": user, "text": f"{user} mentioned the {rng.choice(WORDS)} number {t} and a {rng.choice(WORDS)}."}
        for t in range(turns)
    ]
    record_id = f"c{rng.randrange(10**9)}"
    return {"type": "conversation", "id": record_id, "user": user, "sessions": [{"id": "s", "turns": said}]}


class Deleter:
    """Rounds of: a fresh space, jobs for three users, a deletion while they run (one user forgotten, or the whole
    space deleted), then the count of what came back once they settle."""

    def __init__(self, base_url: str, admin_key: str, prefix: str, seed: int = 11) -> None:
        self._base = base_url
        self._admin = admin_key
        self._prefix = prefix
        self._rng = random.Random(seed)
        self._redis = redis.Redis.from_url(get_settings().redis.url)
        self._driver = get_driver()
        self.report = DeleterReport()

    async def _post(self, http: httpx.AsyncClient, query: str, variables: dict[str, Any], key: str) -> dict[str, Any]:
        answer = await http.post(
            "/graphql", json={"query": query, "variables": variables}, headers={"Authorization": f"Bearer {key}"}
        )
        body: dict[str, Any] = answer.json()
        if body.get("errors"):
            raise RuntimeError(str(body["errors"])[:300])
        return body["data"]  # type: ignore[no-any-return]

    def _left(self, scope: str, whole_space: bool) -> tuple[int, int]:
        """Nodes and Redis keys of a deleted scope (a space with its users, or one user's partition)."""
        where = "n.space = $s OR n.space STARTS WITH $s + '/'" if whole_space else "n.space = $s"
        records, _, _ = self._driver.execute_query(
            f"MATCH (n) WHERE {where} RETURN count(n) AS n", s=scope, database_=get_settings().neo4j.database
        )
        named = re.compile(rf"(^|:){re.escape(scope)}({'/|' if whole_space else ''}:|$)")
        keys = [k for k in self._redis.scan_iter(f"*{scope}*", count=1000) if named.search(k.decode())]
        return int(records[0]["n"]), len(keys)

    async def _settled(self, http: httpx.AsyncClient, key: str, jobs: list[str]) -> None:
        """Waits until none of the jobs is queued or running (a stopped job is gone: NotFound)."""
        deadline = time.monotonic() + SETTLE_S
        while time.monotonic() < deadline:
            states = []
            for job in jobs:
                try:
                    answer = (await self._post(http, JOB, {"id": job}, key))["job"]
                except RuntimeError:
                    answer = {"__typename": "NotFound"}
                states.append(answer.get("state", "GONE"))
            if all(s in ("SUCCEEDED", "FAILED", "GONE") for s in states):
                return
            await asyncio.sleep(1.0)

    async def round(self, http: httpx.AsyncClient, number: int) -> None:
        space = f"{self._prefix}-{number}"
        created = (await self._post(http, CREATE_SPACE, {"n": space}, self._admin))["createSpace"]
        key = created["key"]["secret"]
        users = ["ada", "bo", "cy"]
        jobs = []
        for user in users:
            record = _conversation(self._rng, user, self._rng.randint(20, 80))
            jobs.append((await self._post(http, INGEST, {"records": [record]}, key))["ingest"]["id"])
        await asyncio.sleep(self._rng.uniform(0.5, 8.0))  # somewhere inside the jobs' stages
        whole = self._rng.random() < 0.4
        if whole:
            answer = (await self._post(http, DELETE_SPACE, {"n": space}, self._admin))["deleteSpace"]
            self.report.deletions["delete_space"] += 1
            scope = space
        else:
            victim = self._rng.choice(users)
            answer = (await self._post(http, FORGET_USER, {"user": victim}, key))["forget"]
            self.report.deletions["forget_user"] += 1
            scope = memory_space(space, victim)
        self.report.stopped_jobs += len(answer.get("stoppedJobIds") or [])
        if not whole:
            await self._settled(http, key, jobs)
        else:
            await asyncio.sleep(SETTLE_S / 8)  # the space's key went with it: give the stopped stages time to end
        nodes, keys = self._left(scope, whole)
        self.report.resurrected_nodes += nodes
        self.report.resurrected_redis_keys += keys
        if nodes or keys:
            self.report.failures.append(f"{scope}: {nodes} nodes, {keys} Redis keys back")
        if not whole:  # the space itself goes too, so the soak leaves nothing behind
            await self._post(http, DELETE_SPACE, {"n": space}, self._admin)

    async def run(self, keep_going: Callable[[], bool]) -> DeleterReport:
        async with httpx.AsyncClient(base_url=self._base, timeout=120) as http:
            number = 0
            while keep_going():
                try:
                    await self.round(http, number)
                except Exception as exc:  # a failed round is reported, the soak goes on
                    self.report.failures.append(f"round {number}: {type(exc).__name__}: {exc}"[:300])
                number += 1
        return self.report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=10.0)
    args = parser.parse_args()
    settings = get_settings()
    base = f"http://{settings.api.host}:{settings.api.port}"
    deleter = Deleter(base, settings.api.admin_key.get_secret_value(), f"deleter-{int(time.time())}")
    end = time.monotonic() + args.minutes * 60
    started = time.monotonic()
    report = asyncio.run(deleter.run(lambda: time.monotonic() < end))
    result = {
        "commit": git_commit(),
        "seconds": round(time.monotonic() - started, 1),
        **report.as_dict(),
    }
    write_result("soak_deleter", result)
    print(result)


if __name__ == "__main__":
    main()
