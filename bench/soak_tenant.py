"""A well-behaved tenant of the soak benchmark: its own space and key, the typed client (engram_client) over HTTP and
graphql-transport-ws, a loop of mixed operations, and a ledger of what it ingested and forgot, checked against
every answer it gets."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx
from engram_client import AsyncEngramClient, LinkType

from bench.soak_gate import LoadGate
from bench.soak_io import Record, SoakFailure, ws_operation
from bench.soak_stats import foreign_strings
from engram.ids import stable_id
from workers.pipeline.standardize import split_passages

CONSOLIDATE = "mutation { consolidate { id state } }"
CONSOLIDATION = "query($id: ID!) { consolidation(id: $id) { __typename ... on Consolidation { state } } }"
LOOKUP = """query($ids: [ID!]!) { nodes(ids: $ids) { id __typename
  ... on Proposition { text provenance { id sourceId text } } ... on Episode { text sourceId } } }"""
RECALL_WS = """query($q: String!) { recall(query: $q, limit: 10, tokenBudget: 512) { __typename
  ... on Recall { items { id kind text provenance { episodeId sourceId text } } } } }"""
HISTORY = "query($id: ID!) { history(propositionId: $id) { __typename ... on History { currentId } } }"
# Idle connections are dropped before the server's keep-alive (uvicorn: 5 s) can close them under a request in
# flight, which a client sees as a ReadError on a request the server never read (seen once in the soak).
KEEPALIVE = httpx.Limits(keepalive_expiry=4.0)

CITIES = ["Lisbon", "Oslo", "Kyoto", "Quito", "Nairobi", "Tallinn", "Hobart", "Recife", "Bergen", "Porto"]
PETS = ["a grey cat", "a tortoise", "two finches", "a sheepdog", "a ferret", "a koi carp"]
JOBS = ["marine biologist", "luthier", "glassblower", "cartographer", "beekeeper", "sound engineer"]
HOBBIES = ["bouldering", "sea kayaking", "origami", "chess", "fermenting hot sauce", "restoring clocks"]
PEOPLE = ["Ana", "Ben", "Chidi", "Dana", "Emil", "Farah", "Goran", "Hana"]
QUESTIONS = [
    "Where did {p} {c} move?",
    "What does {p} {c} do for a living?",
    "Which pet does {p} {c} have?",
    "What is {p} {c}'s hobby?",
    "What does the {c} runbook say about deploys?",
]


@dataclass
class SourceEntry:
    """One ingested source (a conversation session or a document) and what the tenant expects of it."""

    id: str
    episodes: int  # how many episodes it must have
    episode_ids: list[str]
    phrase: str  # a question that finds it
    state: str = "pending"  # pending (job running), present, failed, forgotten
    forgotten_at: float = 0.0


@dataclass
class Ledger:
    """What a tenant wrote, forgot and saw; the soak's verdict is computed from the ledgers."""

    sources: dict[str, SourceEntry] = field(default_factory=dict)
    foreign: list[str] = field(default_factory=list)
    forgotten_returned: list[str] = field(default_factory=list)
    answers: int = 0

    def ids(self) -> set[str]:
        return {i for s in self.sources.values() for i in (s.id, *s.episode_ids)}


class Tenant:
    def __init__(self, index: int, space: str, key: str, codeword: str, base_url: str, record: Record) -> None:
        self.index, self.space, self.key, self.codeword = index, space, key, codeword
        self.base_url, self.record = base_url, record
        self.random = random.Random(index)
        self.ledger = Ledger()
        self.others: list[Tenant] = []
        headers = {"Authorization": f"Bearer {key}"}
        self.client = AsyncEngramClient(
            url=f"{base_url}/graphql",
            headers=headers,
            http_client=httpx.AsyncClient(headers=headers, timeout=60.0, limits=KEEPALIVE),
            ws_url=f"{base_url.replace('http', 'ws', 1)}/graphql",
            ws_connection_init_payload={"apiKey": key},
        )
        self.proposition_ids: list[str] = []
        self.concept_keys: list[str] = []
        self.records_made = 0
        self.corrections_made = 0
        self.ingest_task: asyncio.Task[None] | None = None
        self.consolidation_task: asyncio.Task[None] | None = None
        self.last_consolidation = -1e9

    # --- what it writes -------------------------------------------------------------------------------------

    def _fact(self, person: str) -> str:
        r, c = self.random, self.codeword
        return r.choice(
            [
                f"{person} {c} moved to {r.choice(CITIES)} in {r.randint(1995, 2024)}.",
                f"{person} {c} works as a {r.choice(JOBS)}.",
                f"{person} {c} adopted {r.choice(PETS)} last spring.",
                f"{person} {c} spends weekends {r.choice(HOBBIES)}.",
            ]
        )

    def make_record(self, kind: str) -> dict[str, Any]:
        """A new record (unique id) of kind conversation, small_document or medium_document, ledgered as pending."""
        self.records_made += 1
        rid = f"{kind}-{self.records_made}"
        marker = f"{self.codeword} batch {self.records_made}"
        if kind == "conversation":
            sessions = []
            for s in range(self.random.randint(1, 2)):
                turns = [
                    {"id": f"t{t}", "speaker": (p := self.random.choice(PEOPLE)), "text": f"{self._fact(p)} ({marker})"}
                    for t in range(self.random.randint(2, 6))
                ]
                sessions.append({"id": f"s{s}", "turns": turns})
                src = stable_id("src", self.space, "conversation", rid, f"s{s}")
                episode_ids = [stable_id("ep", src, t["id"]) for t in turns]
                self.ledger.sources[src] = SourceEntry(src, len(turns), episode_ids, f"What happened in {marker}?")
            return {"type": "conversation", "id": rid, "title": f"{self.codeword} chat {rid}", "sessions": sessions}
        paragraphs = 2 if kind == "small_document" else 30
        text = "\n\n".join(
            f"{self.codeword} runbook section {i} ({marker}). Restart the {self.codeword} worker after each deploy. "
            + " ".join(self._fact(self.random.choice(PEOPLE)) for _ in range(3))
            for i in range(paragraphs)
        )
        title = f"{self.codeword} runbook {rid}"
        src = stable_id("src", self.space, "document", rid)
        passages = len(split_passages(text))
        episode_ids = [stable_id("ep", src, str(seq)) for seq in range(passages)]
        self.ledger.sources[src] = SourceEntry(src, passages, episode_ids, f"What does {marker} say?")
        return {"type": "document", "id": rid, "title": title, "text": text}

    # --- what it checks in every answer ----------------------------------------------------------------------

    def check(self, answer: Any, sent_at: float) -> None:
        """Counts another tenant's data in an answer, and sources this tenant had forgotten before asking."""
        self.ledger.answers += 1
        others_ids: set[str] = set()
        for other in self.others:
            others_ids |= other.ledger.ids()
        foreign = foreign_strings(answer, [o.codeword for o in self.others], others_ids)
        self.ledger.foreign.extend(foreign)
        forgotten = {
            i
            for s in self.ledger.sources.values()
            if s.state == "forgotten" and s.forgotten_at < sent_at
            for i in (s.id, *s.episode_ids)
        }
        if forgotten:
            self.ledger.forgotten_returned.extend(foreign_strings(answer, [], forgotten))

    # --- operations -------------------------------------------------------------------------------------------

    def question(self) -> str:
        own = [s for s in self.ledger.sources.values() if s.state == "present"]
        if own and self.random.random() < 0.3:
            return self.random.choice(own).phrase
        return self.random.choice(QUESTIONS).format(p=self.random.choice(PEOPLE), c=self.codeword)

    async def recall(self, operation: str = "recall") -> None:
        sent = time.monotonic()
        async with self.record.measure(operation):
            answer = (await self.client.recall(query=self.question(), limit=10, token_budget=512)).recall
            if answer.typename__ != "Recall":
                raise SoakFailure(f"recall_{answer.typename__}", str(answer))
            # The engine's own time (its trace's steps add up to it): what the rest of the request's time is
            # spent around, queueing for a thread, resolving nodes, serialising, the client's own loop.
            self.record.note(f"{operation}_engine", sum(step.ms for step in answer.trace))
            steps: dict[str, float] = {}  # a step may run more than once a recall (rank, hop)
            for step in answer.trace:
                name = step.step.split(" after")[0].split(" ")[0]
                steps[name] = steps.get(name, 0.0) + step.ms
            for name, ms in steps.items():
                self.record.note(f"{operation}_engine_{name}", ms)
            self.check(answer.model_dump(mode="json"), sent)
            for item in answer.items:
                if item.kind == "proposition":
                    self.proposition_ids = [item.id, *self.proposition_ids][:40]
                node = item.node
                for concept in getattr(node, "concepts", None) or []:
                    self.concept_keys = [concept.key, *self.concept_keys][:40]

    async def recall_ws(self) -> None:
        sent = time.monotonic()
        async with self.record.measure("recall_ws"):
            url = f"{self.base_url.replace('http', 'ws', 1)}/graphql"
            payloads = await ws_operation(url, self.key, RECALL_WS, {"q": self.question()})
            if len(payloads) != 1 or payloads[0].get("errors"):
                raise SoakFailure("recall_ws_errors", str(payloads)[:300])
            self.check(payloads[0]["data"], sent)

    async def follow(self) -> None:
        if not self.proposition_ids:
            return await self.recall()
        sent = time.monotonic()
        async with self.record.measure("follow"):
            node_id = self.random.choice(self.proposition_ids)
            answer = (await self.client.follow(node_id=node_id, link_type=LinkType.PROVEN_BY)).follow
            if answer.typename__ != "Links":
                self.proposition_ids.remove(node_id)  # gone since (forgotten or merged): a fresh recall refills
                raise SoakFailure("follow_NotFound", node_id)
            self.check(answer.model_dump(mode="json"), sent)

    async def lookup(self) -> None:
        ids = self.random.sample(self.proposition_ids, min(3, len(self.proposition_ids)))
        own = [s for s in self.ledger.sources.values() if s.state == "present"]
        if own:
            ids.append(self.random.choice(self.random.choice(own).episode_ids))
        sent = time.monotonic()
        async with self.record.measure("lookup"):
            data = self.client.get_data(await self.client.execute(query=LOOKUP, variables={"ids": ids}))
            self.check(data, sent)

    async def source(self) -> None:
        own = [s for s in self.ledger.sources.values() if s.state == "present"]
        if not own:
            return await self.recall()
        entry = self.random.choice(own)
        sent = time.monotonic()
        async with self.record.measure("source"):
            node = (await self.client.source_episodes(id=entry.id, first=20)).node
            if node is None or getattr(node, "episodes", None) is None:
                raise SoakFailure("source_missing", entry.id)
            self.check(node.model_dump(mode="json"), sent)

    async def concept(self) -> None:
        if not self.concept_keys:
            return await self.recall()
        sent = time.monotonic()
        async with self.record.measure("concept"):
            key = self.random.choice(self.concept_keys)
            answer = (await self.client.concept_page(key=key, first=10)).concept
            if answer.typename__ != "ConceptPage":
                self.concept_keys.remove(key)
                raise SoakFailure("concept_NotFound", key)
            self.check(answer.model_dump(mode="json"), sent)

    async def forget(self) -> None:
        own = [s for s in self.ledger.sources.values() if s.state == "present"]
        if len(own) < 4:  # keep most of what was written: the final check needs data
            return await self.recall()
        entry = self.random.choice(own)
        async with self.record.measure("forget"):
            answer = (await self.client.forget(source_ids=[entry.id])).forget
            if answer.typename__ != "Forgotten" or entry.id not in answer.source_ids:
                raise SoakFailure(f"forget_{answer.typename__}", str(answer)[:300])
            entry.state, entry.forgotten_at = "forgotten", time.monotonic()
            self.proposition_ids.clear()  # some may have gone with the source
            self.concept_keys.clear()

    async def correct(self) -> None:
        if not self.proposition_ids:
            return await self.recall()
        node_id = self.random.choice(self.proposition_ids)
        self.proposition_ids.remove(node_id)  # superseded once corrected (or gone): not corrected twice
        # Each correction worded anew: the service refuses (InvalidInput, by design) a correction that brings back a
        # wording from the corrected statement's own history, which a random pick of person and city would repeat.
        self.corrections_made += 1
        person, city = self.random.choice(PEOPLE), self.random.choice(CITIES)
        text = f"{person} {self.codeword} now lives in {city} (correction {self.corrections_made})."
        sent = time.monotonic()
        async with self.record.measure("correct"):
            answer = (await self.client.correct(proposition_id=node_id, text=text, reason="soak")).correct
            if answer.typename__ == "InvalidInput" and "superseded" in answer.message:
                # Superseded since it was recalled (a merge, a correction): correct what stands for it now, as the
                # answer says to.
                data = self.client.get_data(await self.client.execute(query=HISTORY, variables={"id": node_id}))
                current = (data["history"] or {}).get("currentId")
                if current:
                    answer = (await self.client.correct(proposition_id=current, text=text, reason="soak")).correct
            if answer.typename__ != "Corrected":
                raise SoakFailure(f"correct_{answer.typename__}", f"{node_id}: {answer}"[:300])
            self.check(answer.model_dump(mode="json"), sent)

    async def ingest(self, kind: str | None = None) -> None:
        if self.ingest_task is not None and not self.ingest_task.done():
            return await self.recall()
        kind = kind or self.random.choices(["conversation", "small_document", "medium_document"], [5, 3, 1])[0]
        before = set(self.ledger.sources)
        record = self.make_record(kind)
        mine = [self.ledger.sources[i] for i in set(self.ledger.sources) - before]
        job_id = None
        async with self.record.measure(f"ingest_{kind}"):
            answer = (await self.client.ingest(records=[record])).ingest
            if answer.typename__ != "Job":
                raise SoakFailure(f"ingest_{answer.typename__}", str(answer)[:300])
            job_id = answer.id
        if job_id is None:
            for entry in mine:
                entry.state = "failed"
            return
        self.ingest_task = asyncio.create_task(self._await_job(job_id, mine))

    async def _await_job(self, job_id: str, entries: list[SourceEntry]) -> None:
        """Follows the job over the socket (most times) or by polling, then marks its sources present or failed."""
        state = "UNKNOWN"
        if self.random.random() < 0.7:
            async with self.record.measure("job_progress_ws"):
                async with asyncio.timeout(900):
                    async for event in self.client.job_progress(id=job_id):
                        state = event.job_progress.state.value
                        if state in ("SUCCEEDED", "FAILED"):
                            break
        if state not in ("SUCCEEDED", "FAILED"):  # polled, or the socket ended early
            deadline = time.monotonic() + 900
            while time.monotonic() < deadline:
                async with self.record.measure("job"):
                    answer = (await self.client.job(id=job_id)).job
                    state = answer.state.value if answer.typename__ == "Job" else "NotFound"
                if state in ("SUCCEEDED", "FAILED", "NotFound"):
                    break
                await asyncio.sleep(1.0)
        if state != "SUCCEEDED":
            self.record.error(f"job_{state}", job_id)
        else:
            await self._note_job_times(job_id)
        for entry in entries:
            entry.state = "present" if state == "SUCCEEDED" else "failed"

    async def _note_job_times(self, job_id: str) -> None:
        """The finished job's queue wait (created to finished, less the time its stages ran) and end-to-end time, as
        its record in the job store says (one clock), so the run reports what the fair scheduler made tenants wait."""
        async with self.record.measure("job"):
            answer = (await self.client.job(id=job_id)).job
        if answer.typename__ != "Job":
            return
        e2e_s = (datetime.fromisoformat(answer.finished_at) - datetime.fromisoformat(answer.created_at)).total_seconds()
        ran_s = sum(float(seconds) for seconds in answer.stage_seconds.values())
        self.record.note("ingest_job_wait", 1000 * max(0.0, e2e_s - ran_s))
        self.record.note("ingest_job_e2e", 1000 * e2e_s)

    async def consolidate(self) -> None:
        busy = self.consolidation_task is not None and not self.consolidation_task.done()
        if busy or time.monotonic() - self.last_consolidation < 120:
            return await self.recall()
        self.last_consolidation = time.monotonic()
        async with self.record.measure("consolidate"):
            data = self.client.get_data(await self.client.execute(query=CONSOLIDATE))
            self.consolidation_task = asyncio.create_task(self._await_consolidation(data["consolidate"]["id"]))

    async def _await_consolidation(self, run_id: str) -> None:
        """Polls the run until it ends; a failed run is one error (counted once, not at every poll)."""
        deadline = time.monotonic() + 900
        state = "PENDING"
        while time.monotonic() < deadline and state not in ("SUCCESS", "FAILURE"):
            await asyncio.sleep(2.0)
            async with self.record.measure("consolidation"):
                data = self.client.get_data(await self.client.execute(query=CONSOLIDATION, variables={"id": run_id}))
                state = str(data["consolidation"].get("state"))
        if state != "SUCCESS":
            self.record.error(f"consolidation_{state}", run_id)

    async def step(self) -> None:
        operations = [
            (self.recall, 30),
            (self.recall_ws, 5),
            (self.follow, 10),
            (self.lookup, 8),
            (self.source, 8),
            (self.concept, 7),
            (self.ingest, 14),
            (self.forget, 5),
            (self.correct, 5),
            (self.consolidate, 3),
        ]
        operation = self.random.choices([o for o, _ in operations], [w for _, w in operations])[0]
        await operation()

    async def run(self, gate: LoadGate, think_s: tuple[float, float]) -> None:
        async with gate.party():
            while gate.running():
                await gate.checkpoint()
                await self.step()
                await asyncio.sleep(self.random.uniform(*think_s))

    async def drain(self) -> None:
        for task in (self.ingest_task, self.consolidation_task):
            if task is not None:
                await task

    # --- the final check --------------------------------------------------------------------------------------

    async def verify(self) -> tuple[list[str], list[str]]:
        """(lost: present sources missing or short of episodes; resurrected: forgotten ids still answered)."""
        lost: list[str] = []
        resurrected: list[str] = []
        for entry in self.ledger.sources.values():
            if entry.state == "present":
                node = (await self.client.source_episodes(id=entry.id, first=1)).node
                episodes = getattr(node, "episodes", None)
                if episodes is None or episodes.total_count != entry.episodes:
                    found = None if episodes is None else episodes.total_count
                    lost.append(f"{entry.id}: {found} of {entry.episodes} episodes")
            elif entry.state == "forgotten":
                ids = [entry.id, *entry.episode_ids]
                data = self.client.get_data(await self.client.execute(query=LOOKUP, variables={"ids": ids}))
                resurrected.extend(n["id"] for n in data["nodes"] if n is not None)
                sent = time.monotonic()
                answer = (await self.client.recall(query=entry.phrase, limit=25)).recall
                self.check(answer.model_dump(mode="json"), sent)
        return lost, resurrected
