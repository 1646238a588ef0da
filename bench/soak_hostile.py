"""The hostile tenant of the soak benchmark: a valid key of its own space, used to attack the service the ways the
security review listed. Each attack's outcome is counted as `attack:outcome` (the refusal's HTTP status and error
code, the socket's close code, or `accepted` where the service let it through); answers it does get are scanned
for the well-behaved tenants' data like theirs are."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import websockets

from bench.soak_gate import LoadGate
from bench.soak_io import WS_PROTOCOL, Record, error_kind
from bench.soak_stats import foreign_strings
from bench.soak_tenant import KEEPALIVE, Tenant

INJECTIONS = [
    "'}) MATCH (n) DETACH DELETE n //",
    '" OR 1=1 --',
    "*:* OR space:*",
    "text:/.*/ AND space:other",
    "$space} RETURN n UNION MATCH (n) RETURN n //",
    "\\u0000\\\\'; CALL db.labels() //",
    "`) WITH * MATCH (x:Episode) RETURN x.text //",
    "a" * 5000,
]
DEEP = (
    '{ node(id: "x") { ... on Proposition { provenance { source { episodes { edges { node { knowledge { '
    "... on Proposition { provenance { source { episodes { edges { node { knowledge { ... on Proposition { "
    "provenance { id } } } } } } } } } } } } } } } } } } } }"
)
HUGE_RECALL = (
    '{ recall(query: "x", limit: 100000, tokenBudget: 10000000, hopLimit: 50) '
    "{ __typename ... on Recall { items { id } } } }"
)
WIDE = "{ " + " ".join(f"s{i}: stats {{ space episodes propositions concepts }}" for i in range(400)) + " }"


def answered(answer: Any) -> str:
    """`answered_<typename>` of the first root field (`NotFound`, `OverBudget`, `Recall` ...), `answered_null`
    for a null one, `answered` otherwise."""
    data = answer.get("data") if isinstance(answer, dict) else None
    first = next(iter(data.values()), None) if isinstance(data, dict) and data else None
    if first is None:
        return "answered_null"
    if isinstance(first, dict) and "__typename" in first:
        return f"answered_{first['__typename']}"
    if isinstance(first, list):
        return f"answered_{sum(x is not None for x in first)}_of_{len(first)}"
    return "answered"


HOSTILE_ADDRESS = "127.0.0.2"  # loopback, but not the tenants' 127.0.0.1
# The failed-authentication flood comes from an address of its own: past its burst the API refuses every request from
# the flooding address (429) for the rest of the minute, and the other attacks must meet the check they are aimed at.
FLOOD_ADDRESS = "127.0.0.3"


class Hostile:
    def __init__(self, space: str, key: str, base_url: str, record: Record, victims: list[Tenant]) -> None:
        self.space, self.key, self.base_url, self.record, self.victims = space, key, base_url, record, victims
        self.ws_url = f"{base_url.replace('http', 'ws', 1)}/graphql"
        # From an address of its own, as an attacker would be: the API throttles failed authentications per client
        # address, and the well-behaved tenants (127.0.0.1) must not pay for this one's floods.
        self.http = self._client(HOSTILE_ADDRESS)
        self.flood_http = self._client(FLOOD_ADDRESS)
        self.random = random.Random(99)
        self.revoked_key = ""
        self.foreign: list[str] = []
        self.background: set[asyncio.Task[None]] = set()

    def _client(self, address: str) -> httpx.AsyncClient:
        transport = httpx.AsyncHTTPTransport(local_address=address, limits=KEEPALIVE)
        return httpx.AsyncClient(base_url=self.base_url, timeout=60.0, transport=transport)

    def count(self, attack: str, outcome: str) -> None:
        self.record.hostile_outcomes[f"{attack}:{outcome}"] += 1

    async def post(
        self, attack: str, body: Any, key: str | None = "own", raw: bytes | None = None, flood: bool = False
    ) -> Any:
        """POSTs to /graphql (from the flood's address if `flood`) and counts the outcome: `http_<status>`,
        `error_<codes>` or `accepted`."""
        key = self.key if key == "own" else key
        http = self.flood_http if flood else self.http
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        try:
            if raw is not None:
                headers["content-type"] = "application/json"
                response = await http.post("/graphql", content=raw, headers=headers)
            else:
                response = await http.post("/graphql", json=body, headers=headers)
        except Exception as exc:  # the attack's outcome, whatever it is
            self.count(attack, error_kind(exc))
            return None
        try:
            answer = response.json()
        except ValueError:
            self.count(attack, f"http_{response.status_code}_not_json")
            return None
        errors = answer.get("errors") if isinstance(answer, dict) else None
        if response.status_code != 200:
            self.count(attack, f"http_{response.status_code}")
        elif errors:
            codes = sorted({str((e.get("extensions") or {}).get("code", "GRAPHQL")) for e in errors})
            self.count(attack, "error_" + "+".join(codes))
        else:
            self.count(attack, answered(answer))
        self.scan(answer)
        return answer

    def scan(self, answer: Any) -> None:
        ids: set[str] = set()
        for victim in self.victims:
            ids |= victim.ledger.ids()
        self.foreign.extend(foreign_strings(answer, [v.codeword for v in self.victims], ids))

    # --- attacks ----------------------------------------------------------------------------------------------

    async def oversize_body(self) -> None:
        await self.post("oversize_body", None, raw=b'{"query": "' + b"x" * 5_000_000 + b'"}')

    async def aliases(self) -> None:
        query = "{ " + " ".join(f'r{i}: recall(query: "q{i}", limit: 100) {{ __typename }}' for i in range(60)) + " }"
        await self.post("aliased_operations", {"query": query})

    async def invalid_key(self) -> None:
        await self.post("invalid_key", {"query": "{ stats { episodes } }"}, key=f"egk_{secrets.token_hex(8)}.x")

    async def revoked_key_use(self) -> None:
        if not self.revoked_key:
            minted = await self.post(
                "mint_key", {"query": 'mutation { createApiKey(label: "r") { secret key { id } } }'}
            )
            issued = ((minted or {}).get("data") or {}).get("createApiKey")
            if not issued:
                return
            await self.post(
                "revoke_key", {"query": f'mutation {{ revokeApiKey(id: "{issued["key"]["id"]}") {{ __typename }} }}'}
            )
            self.revoked_key = issued["secret"]
        await self.post("revoked_key", {"query": "{ stats { episodes } }"}, key=self.revoked_key)
        await self.socket_close_code("revoked_key_socket", self.revoked_key)

    async def auth_flood(self) -> None:
        garbage = [f"egk_{secrets.token_hex(8)}.{secrets.token_urlsafe(16)}" for _ in range(40)]
        await asyncio.gather(
            *(self.post("failed_auth_flood", {"query": "{ stats { episodes } }"}, key=k, flood=True) for k in garbage)
        )

    async def mint_keys(self) -> None:
        for _ in range(3):
            await self.post("key_minting", {"query": 'mutation { createApiKey(label: "more") { secret } }'})

    async def injection(self) -> None:
        query = (
            "query($q: String!) { recall(query: $q, limit: 25) { __typename ... on Recall { items { id text "
            "provenance { sourceId text } } } } }"
        )
        await self.post("injection_recall", {"query": query, "variables": {"q": self.random.choice(INJECTIONS)}})
        key = self.random.choice(INJECTIONS[:7])
        await self.post(
            "injection_concept",
            {"query": "query($k: String!) { concept(key: $k) { __typename } }", "variables": {"k": key}},
        )

    async def deep_and_wide(self) -> None:
        await self.post("deep_query", {"query": DEEP})
        await self.post("wide_query", {"query": WIDE})
        await self.post("huge_page", {"query": "{ dimensions(first: 100000) { edges { node { conceptCount } } } }"})
        await self.post("huge_limit", {"query": HUGE_RECALL})

    async def admin_only(self) -> None:
        """A tenant's key asking for what only the admin may do: a space (an existing one: a key into its data)."""
        victim = self.random.choice(self.victims).space
        query = "mutation($n: String!) { createSpace(name: $n) { __typename } }"
        await self.post("create_space_as_tenant", {"query": query, "variables": {"n": victim}})

    async def unknown_ids(self) -> None:
        victim = self.random.choice(self.victims)
        theirs = [s.id for s in victim.ledger.sources.values()][:5]  # their ids are computable: ask for them
        await self.post(
            "foreign_ids",
            {"query": "query($ids: [ID!]!) { nodes(ids: $ids) { id } }", "variables": {"ids": theirs or ["src_0"]}},
        )
        await self.post(
            "unknown_id",
            {"query": '{ follow(nodeId: "prop_ffffffffffffffffffff", linkType: PROVEN_BY) { __typename } }'},
        )
        await self.post("unknown_job", {"query": '{ job(id: "0000") { __typename } }'})

    async def malformed(self) -> None:
        await self.post("malformed_json", None, raw=b'{"query": "{ stats { episodes } ')
        await self.post(
            "malformed_records",
            {"query": 'mutation { ingest(input: {records: {"type": "conversation", "id": 1}}) { __typename } }'},
        )
        await self.post(
            "wrong_variable_type",
            {"query": "query($n: Int!) { recall(query: $n) { __typename } }", "variables": {"n": "x"}},
        )
        await self.post("no_query", {"variables": {}})

    async def socket_close_code(self, attack: str, key: str | None, init: bool = True, wait_s: float = 5.0) -> None:
        """Opens a socket (connection_init with `key` unless `init` is false) and counts how it ends."""
        try:
            async with websockets.connect(
                self.ws_url, subprotocols=[WS_PROTOCOL], local_addr=(HOSTILE_ADDRESS, 0)
            ) as ws:
                if init:
                    await ws.send(json.dumps({"type": "connection_init", "payload": {"apiKey": key} if key else {}}))
                async with asyncio.timeout(wait_s):
                    message = json.loads(await ws.recv())
                self.count(attack, "accepted" if message.get("type") == "connection_ack" else str(message.get("type")))
        except websockets.ConnectionClosed as exc:
            self.count(attack, f"ws_closed_{exc.rcvd.code if exc.rcvd else 'none'}")
        except TimeoutError:
            self.count(attack, f"open_after_{wait_s:.0f}s")
        except Exception as exc:
            self.count(attack, error_kind(exc))

    async def socket_flood(self) -> None:
        """More sockets than a key may hold, all at once; each kept open a moment."""
        opened: list[Any] = []

        async def one() -> None:
            try:
                ws = await websockets.connect(self.ws_url, subprotocols=[WS_PROTOCOL], local_addr=(HOSTILE_ADDRESS, 0))
                opened.append(ws)
                await ws.send(json.dumps({"type": "connection_init", "payload": {"apiKey": self.key}}))
                async with asyncio.timeout(5):
                    message = json.loads(await ws.recv())
                self.count("socket_flood", "accepted" if message.get("type") == "connection_ack" else "other")
            except websockets.ConnectionClosed as exc:
                self.count("socket_flood", f"ws_closed_{exc.rcvd.code if exc.rcvd else 'none'}")
            except Exception as exc:
                self.count("socket_flood", error_kind(exc))

        await asyncio.gather(*(one() for _ in range(16)))
        await asyncio.sleep(1.0)
        await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)

    async def silent_sockets(self) -> None:
        """Sockets that never send connection_init: watched in the background until the server closes them."""
        for _ in range(3):
            task = asyncio.create_task(self.socket_close_code("socket_never_authenticates", None, False, 30.0))
            self.background.add(task)
            task.add_done_callback(self.background.discard)

    async def socket_oversize(self) -> None:
        try:
            async with websockets.connect(
                self.ws_url, subprotocols=[WS_PROTOCOL], local_addr=(HOSTILE_ADDRESS, 0), max_size=None
            ) as ws:
                await ws.send(json.dumps({"type": "connection_init", "payload": {"apiKey": self.key}}))
                await ws.recv()
                await ws.send(
                    json.dumps(
                        {
                            "id": "1",
                            "type": "subscribe",
                            "payload": {"query": "{ stats { episodes } }", "variables": {"pad": "x" * 5_000_000}},
                        }
                    )
                )
                async with asyncio.timeout(10):
                    await ws.recv()
                self.count("socket_oversize_message", "accepted")
        except websockets.ConnectionClosed as exc:
            self.count("socket_oversize_message", f"ws_closed_{exc.rcvd.code if exc.rcvd else 'none'}")
        except Exception as exc:
            self.count("socket_oversize_message", error_kind(exc))

    async def run(self, gate: LoadGate) -> None:
        attacks: list[Callable[[], Awaitable[None]]] = [
            self.oversize_body, self.aliases, self.invalid_key, self.revoked_key_use, self.auth_flood,
            self.mint_keys, self.admin_only, self.injection, self.deep_and_wide, self.unknown_ids, self.malformed,
            self.socket_flood, self.silent_sockets, self.socket_oversize,
        ]  # fmt: skip
        async with gate.party():
            while gate.running():
                for attack in attacks:
                    await gate.checkpoint()
                    if not gate.running():
                        break
                    await attack()
                    await asyncio.sleep(self.random.uniform(0.2, 0.8))
        await asyncio.gather(*self.background, return_exceptions=True)
        await asyncio.gather(self.http.aclose(), self.flood_http.aclose())
