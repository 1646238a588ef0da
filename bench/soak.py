"""Soak: N minutes of mixed traffic from well-behaved tenants plus one hostile tenant, against the running stack.

Each well-behaved tenant (bench/soak_tenant.py) has its own space and key (created through the API's admin
`createSpace`) and uses the typed client over HTTP and graphql-transport-ws: ingest (conversations, small and
medium documents) followed over the socket or by polling, recall (HTTP and socket), navigation (follow, node
lookups, a source's episodes, concept pages), forget, correct, consolidate. The hostile tenant
(bench/soak_hostile.py) runs the security review's attacks meanwhile, and the deleting tenant (bench/soak_deleter.py)
forgets users and deletes spaces while their jobs run, counting what of them comes back. Redis used memory and the
Neo4j heap (JMX through `dbms.queryJmx`) are sampled every few seconds.

Order: create spaces, ingest a first corpus per tenant and wait for it, recall idle (a baseline of the same run),
then the soak with four pauses (every tenant parked, their jobs finished, idle recalls on the graph as it stands: the
baseline on the same graph as the recalls around it; bench/soak_gate.py), then a drain of the last jobs, then the
verdict: every source a tenant ingested and did not forget has all its episodes (lost_items), nothing it forgot is
found by id or answered, and no answer it got held another tenant's data (foreign_items: another tenant's codeword in
a text, or one of its ids); last, idle recalls once more on the graph the load left.

    ~/.cache/engram/venv/bin/python -m bench.soak [--minutes 10] [--tenants 8]

Writes bench/results/soak.json and soak.png. Needs the stack running (`make up`) and ENGRAM_API_ADMIN_KEY.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

import httpx
import neo4j
import redis
from tqdm import tqdm

from bench.common import RESULTS_DIR, git_commit, write_result
from bench.soak_cpu import cores_used, stack_cpu_seconds
from bench.soak_deleter import Deleter
from bench.soak_gate import LoadGate
from bench.soak_hostile import Hostile
from bench.soak_io import IDLE_PHASES, Record
from bench.soak_stats import Sample, operation_figures, percentile, span, windowed_percentile
from bench.soak_tenant import Tenant
from engram.settings import get_settings
from graph.cypher import load
from graph.driver import get_driver

CODEWORDS = ["Quorvath", "Blenshire", "Tamsivel", "Orrindale", "Kestmoor", "Vandrelle", "Pellucine", "Zarquemba"]
HOSTILE_CODEWORD = "Malgrith"
SAMPLE_EVERY_S = 3.0
IDLE_RECALLS_PER_TENANT = 20  # 160 idle recalls: a p95 of fewer samples swings with one slow recall
PAUSES = 4  # pauses in the load for idle recalls on the graph as it stands, each PAUSE_ROUNDS rounds of the tenants
PAUSE_ROUNDS = 5  # 4 x 5 x 8 = 160 idle recalls during the load
THINK_S = (0.3, 1.2)
DRAIN_S = 600


async def create_space(http: httpx.AsyncClient, name: str) -> str:
    query = """mutation($n: String!) { createSpace(name: $n) { __typename ... on SpaceCreated { key { secret } } } }"""
    answer = (await http.post("/graphql", json={"query": query, "variables": {"n": name}})).json()
    created = answer["data"]["createSpace"]
    assert created["__typename"] == "SpaceCreated", answer
    return str(created["key"]["secret"])


async def sample_memory(record: Record, series: dict[str, list[tuple[float, float]]], stop: asyncio.Event) -> None:
    """Redis used_memory and the Neo4j heap in use, every SAMPLE_EVERY_S (blocking calls off the loop)."""
    settings = get_settings()
    client = redis.Redis.from_url(settings.redis.url)
    driver = get_driver()

    def read() -> tuple[float, float]:
        used = int(client.info("memory")["used_memory"])
        with driver.session(database=settings.neo4j.database) as session:
            heap = int(session.run(load("system/heap_in_use")).single(strict=True)["used"])
        return used / 2**20, heap / 2**20

    while not stop.is_set():
        try:
            redis_mb, heap_mb = await asyncio.to_thread(read)
        except (redis.exceptions.RedisError, neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError) as exc:
            # A sample missed on a saturated machine leaves a gap in the series, not a dead run.
            record.examples.setdefault("memory_sample_missed", str(exc)[:400])
        else:
            series["redis_mb"].append((record.now(), redis_mb))
            series["neo4j_heap_mb"].append((record.now(), heap_mb))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), SAMPLE_EVERY_S)
    client.close()


async def ticker(record: Record, gate: LoadGate, total_s: int) -> None:
    bar = tqdm(total=total_s, desc="soak", unit="s")
    while (left := gate.left_s()) > 0:
        await asyncio.sleep(min(1.0, left))
        bar.n = min(total_s, total_s - int(gate.left_s()))  # the load's own seconds: still during a pause
        bar.set_postfix(requests=len(record.samples), errors=sum(record.errors_well_behaved.values()))
        bar.refresh()
    bar.close()


def chart(
    samples: list[Sample],
    series: dict[str, list[tuple[float, float]]],
    phases: dict[str, float],
    pause_windows: list[tuple[float, float]],
    path: Path,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (latency, redis_axis, heap_axis) = plt.subplots(3, 1, figsize=(11, 9), sharex=True)
    requests = {s.operation for s in samples if "_engine" not in s.operation}
    for label, operations in (
        ("recall p95", {"recall", "recall_idle", "recall_idle_after", "recall_idle_during"}),
        (
            "recall engine's own time p95",
            {"recall_engine", "recall_engine_idle", "recall_engine_idle_after", "recall_engine_idle_during"},
        ),
        ("recall over socket p95", {"recall_ws"}),
        ("all requests p95", requests),
    ):
        windows = windowed_percentile(samples, 15.0, 95, operations)
        if windows:
            latency.plot([w[0] for w in windows], [w[1] for w in windows], marker=".", label=label)
    latency.set_ylabel("p95 latency per 15 s (ms)")
    latency.set_yscale("log")
    latency.legend()
    for axis, name, colour, label in (
        (redis_axis, "redis_mb", "#c44e52", "Redis used memory (MB)"),
        (heap_axis, "neo4j_heap_mb", "#4c72b0", "Neo4j heap in use (MB)"),
    ):
        points = series[name]
        axis.plot([p[0] for p in points], [p[1] for p in points], color=colour)
        axis.set_ylabel(label)
        axis.set_ylim(bottom=0)
    heap_axis.set_xlabel("seconds since start")
    for axis in (latency, redis_axis, heap_axis):
        for phase, at in phases.items():
            axis.axvline(at, color="grey", linestyle=":", linewidth=1)
            axis.text(at, axis.get_ylim()[1], f" {phase}", va="top", fontsize=8, color="grey")
        for start, end in pause_windows:  # the load parked, idle recalls on the graph as it stood
            axis.axvspan(start, end, color="grey", alpha=0.15, linewidth=0)
    fig.suptitle("Soak: well-behaved tenants + one hostile tenant (latency and memory over time)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


async def idle_recalls(tenants: list[Tenant], label: str, rounds: int = IDLE_RECALLS_PER_TENANT) -> None:
    """Recalls one at a time, tenant after tenant, with nothing else running: an idle baseline."""
    for _ in tqdm(range(rounds), desc=label, unit="round", leave=False):
        for tenant in tenants:
            await tenant.recall()


async def pauses(
    record: Record, gate: LoadGate, tenants: list[Tenant], load_s: float, count: int
) -> list[tuple[float, float]]:
    """`count` pauses spread over the load: each parks every tenant, waits for their jobs to finish, then recalls idle
    on the graph as it stands (the baseline for the recalls around it). Returns each pause's (start, end)."""
    windows: list[tuple[float, float]] = []
    started = time.monotonic()
    for number in range(1, count + 1):
        paused_s = sum(end - start for start, end in windows)
        await asyncio.sleep(max(0.0, started + number * load_s / (count + 1) + paused_s - time.monotonic()))
        start = record.now()
        async with gate.paused():
            await asyncio.gather(*(t.drain() for t in tenants))
            record.phase = "idle_during"
            await idle_recalls(tenants, f"idle recall, pause {number}", PAUSE_ROUNDS)
            record.phase = "load"
        windows.append((start, record.now()))
    return windows


async def soak(minutes: float, tenant_count: int) -> dict[str, Any]:
    settings = get_settings()
    base = f"http://{settings.api.host}:{settings.api.port}"
    record = Record()
    series: dict[str, list[tuple[float, float]]] = {"redis_mb": [], "neo4j_heap_mb": []}
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_memory(record, series, stop))
    run = f"soak-{int(time.time())}"
    admin = {"Authorization": f"Bearer {settings.api.admin_key.get_secret_value()}"}
    async with httpx.AsyncClient(base_url=base, headers=admin, timeout=60) as http:
        keys = [await create_space(http, f"{run}-t{i}") for i in range(tenant_count)]
        hostile_key = await create_space(http, f"{run}-hostile")
    tenants = [Tenant(i, f"{run}-t{i}", keys[i], CODEWORDS[i], base, record) for i in range(tenant_count)]
    for tenant in tenants:
        tenant.others = [t for t in tenants if t is not tenant]
    hostile = Hostile(f"{run}-hostile", hostile_key, base, record, tenants)
    # The deleting tenant: users forgotten and spaces deleted while their jobs run; what comes back is counted.
    deleter = Deleter(base, settings.api.admin_key.get_secret_value(), f"{run}-deleter")
    phases: dict[str, float] = {}

    print(f"first corpus: {tenant_count} tenants x (conversation, small and medium document)")
    for kind in ("conversation", "small_document", "medium_document"):
        await asyncio.gather(*(t.ingest(kind) for t in tenants))
        await asyncio.gather(*(t.drain() for t in tenants))
    record.phase = "idle"
    phases["idle"] = record.now()
    for tenant in tenants:  # warm-up, not measured as idle
        await tenant.recall("warmup")
    await idle_recalls(tenants, "idle recall")
    record.phase = "load"
    phases["load"] = record.now()
    gate = LoadGate(time.monotonic() + minutes * 60)
    cpu_started = time.process_time()
    stack_cpu_started = stack_cpu_seconds(settings.state_dir)
    pause_windows, *_ = await asyncio.gather(
        pauses(record, gate, tenants, minutes * 60, PAUSES),
        ticker(record, gate, int(minutes * 60)),
        hostile.run(gate),
        deleter.run(lambda: time.monotonic() < gate.until),
        *(t.run(gate, THINK_S) for t in tenants),
    )
    record.phase = "drain"
    phases["drain"] = record.now()
    # This process (the tenants, the hostile one, their event loop) shares the cores with the service it measures.
    client_cpu_share = (time.process_time() - cpu_started) / (phases["drain"] - phases["load"])
    stack_cores = cores_used(stack_cpu_started, stack_cpu_seconds(settings.state_dir), phases["drain"] - phases["load"])
    print("draining the last jobs and consolidations")
    try:
        async with asyncio.timeout(DRAIN_S):
            await asyncio.gather(*(t.drain() for t in tenants))
    except TimeoutError:
        record.error("drain_timeout", f"jobs still running {DRAIN_S} s after the load")
    record.phase = "verify"
    phases["verify"] = record.now()
    lost: list[str] = []
    resurrected: list[str] = []
    for tenant in tqdm(tenants, desc="verify", unit="tenant"):
        tenant_lost, tenant_resurrected = await tenant.verify()
        lost += [f"{tenant.space} {x}" for x in tenant_lost]
        resurrected += [f"{tenant.space} {x}" for x in tenant_resurrected]
    # The same idle recalls again, now on the graph the load left (grown, consolidated): what is left of the
    # difference to the first idle figure is the graph's growth, not the load.
    record.phase = "idle_after"
    phases["idle_after"] = record.now()
    await idle_recalls(tenants, "idle recall after the load")
    stop.set()
    await sampler
    for tenant in tenants:
        await tenant.client.http_client.aclose()
    return {
        "record": record,
        "series": series,
        "phases": phases,
        "tenants": tenants,
        "hostile": hostile,
        "lost": lost,
        "resurrected": resurrected,
        "deleter": deleter.report.as_dict(),
        "client_cpu_share": client_cpu_share,
        "pauses": pause_windows,
        "stack_cores": stack_cores,
    }


# Each recall figure's phases and the suffix a phase gives an operation's name (none under the load).
PHASE_SUFFIXES = {
    "idle": "_idle",
    "under_load": "",
    "idle_after_load": "_idle_after",
    "idle_during_load": "_idle_during",
}


def phase_ms(samples: list[Sample], load: list[Sample], operation: str) -> dict[str, list[float]]:
    """The times of `operation` in each phase: idle before the load, under it, idle after it and idle in its pauses."""
    return {
        phase: [s.ms for s in (samples if suffix else load) if s.operation == f"{operation}{suffix}"]
        for phase, suffix in PHASE_SUFFIXES.items()
    }


def p95s(ms_by_phase: dict[str, list[float]]) -> dict[str, float]:
    return {phase: round(percentile(ms, 95), 1) if ms else float("nan") for phase, ms in ms_by_phase.items()}


def engine_steps(samples: list[Sample], load: list[Sample]) -> dict[str, dict[str, float]]:
    """Each recall step's p95 per phase (ms, from the answers' traces)."""
    prefix = "recall_engine_"
    names = sorted({s.operation[len(prefix) :] for s in load if s.operation.startswith(prefix)})
    return {name: p95s(phase_ms(samples, load, f"{prefix}{name}")) for name in names}


def hop_share(samples: list[Sample], load: list[Sample]) -> dict[str, float]:
    """The share of recalls whose engine took a further hop (their trace has a hop step), per phase: hops cost a second
    round of expansion and ranking, and happen only once consolidation has linked concepts."""
    recalls, hopped = phase_ms(samples, load, "recall_engine"), phase_ms(samples, load, "recall_engine_hop")
    return {phase: round(len(hopped[phase]) / len(ms), 3) if ms else float("nan") for phase, ms in recalls.items()}


def summarise(outcome: dict[str, Any], minutes: float) -> dict[str, Any]:
    record: Record = outcome["record"]
    tenants: list[Tenant] = outcome["tenants"]
    hostile: Hostile = outcome["hostile"]
    idle_suffixes = tuple(f"_{phase}" for phase in IDLE_PHASES)
    # Under-load samples: the idle phases' carry their suffix, and nothing else measures a recall outside the load.
    load = [s for s in record.samples if not s.operation.endswith(idle_suffixes) and s.operation != "warmup"]
    recall_ms = phase_ms(record.samples, load, "recall")
    recall_p95 = p95s(recall_ms)
    foreign = [x for t in tenants for x in t.ledger.foreign]
    returned_after_forget = [x for t in tenants for x in t.ledger.forgotten_returned] + outcome["resurrected"]
    sources = [s for t in tenants for s in t.ledger.sources.values()]
    return {
        "minutes": minutes,
        "tenants": len(tenants),
        "errors_well_behaved": sum(record.errors_well_behaved.values()),
        "errors_well_behaved_by_kind": dict(record.errors_well_behaved.most_common()),
        "error_examples": record.examples,
        "lost_items": len(outcome["lost"]),
        "lost_examples": outcome["lost"][:20],
        "foreign_items": len(foreign),
        "foreign_examples": foreign[:20],
        "forgotten_returned": len(returned_after_forget),
        "forgotten_returned_examples": returned_after_forget[:20],
        "deleting_tenant": outcome["deleter"],  # resurrected_nodes and resurrected_redis_keys must be 0
        "hostile_foreign_items": len(hostile.foreign),
        "hostile_outcomes": dict(sorted(record.hostile_outcomes.items())),
        "redis_memory_mb": span([v for _, v in outcome["series"]["redis_mb"]]),
        "neo4j_heap_mb": span([v for _, v in outcome["series"]["neo4j_heap_mb"]]),
        "recall_p95_ms": recall_p95,
        "recall_p95_ratio_under_load_over_idle": round(recall_p95["under_load"] / recall_p95["idle"], 2),
        # The graph grows under the load, and a recall costs more on a bigger space: against idle recalls on the graph
        # the load left, and against those in its pauses (the graph as the recalls around them saw it).
        **{
            f"recall_p95_ratio_under_load_over_{phase}": round(recall_p95["under_load"] / recall_p95[phase], 2)
            for phase in ("idle_after_load", "idle_during_load")
        },
        "recall_idle_samples": len(recall_ms["idle"]),
        "recall_idle_during_load_samples": len(recall_ms["idle_during_load"]),
        "pauses_s": [(round(start, 1), round(end, 1)) for start, end in outcome["pauses"]],
        "recall_hop_share": hop_share(record.samples, load),
        # The engine's own time, from each answer's trace: the rest of a recall's time is spent around it.
        "recall_engine_p95_ms": p95s(phase_ms(record.samples, load, "recall_engine")),
        "recall_engine_steps_p95_ms": engine_steps(record.samples, load),
        "client_cpu_share_of_a_core": round(outcome["client_cpu_share"], 2),
        # Busy cores per stack process over the load (the worker with its pool): who the recalls share the CPU with.
        "stack_cores_under_load": outcome["stack_cores"],
        "operations": operation_figures(load),
        # Every well-behaved ingest job of the load: its wait in the queue and its end-to-end time (the job store's).
        "ingest_job_p95_s": {name: job_p95_s(load, f"ingest_job_{name}") for name in ("wait", "e2e")},
        "sources": {
            "ingested": len(sources),
            "present": sum(s.state == "present" for s in sources),
            "forgotten": sum(s.state == "forgotten" for s in sources),
            "failed": sum(s.state == "failed" for s in sources),
            "pending": sum(s.state == "pending" for s in sources),
        },
        "answers_checked": sum(t.ledger.answers for t in tenants),
        "phases_s": {k: round(v, 1) for k, v in outcome["phases"].items()},
        "memory_series": {k: [(round(t, 1), round(v, 1)) for t, v in pts] for k, pts in outcome["series"].items()},
        "commit": git_commit(),
    }


def job_p95_s(samples: list[Sample], operation: str) -> float | None:
    ms = [s.ms for s in samples if s.operation == operation]
    return round(percentile(ms, 95) / 1000, 2) if ms else None


def main() -> None:
    parser = argparse.ArgumentParser(description="Soak: mixed multi-tenant traffic plus a hostile tenant")
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--tenants", type=int, default=8, choices=range(1, len(CODEWORDS) + 1))
    parser.add_argument("--notes", default="", help="what the figures should be read with (e.g. a shared machine)")
    args = parser.parse_args()
    outcome = asyncio.run(soak(args.minutes, args.tenants))
    result = summarise(outcome, args.minutes)
    result["notes"] = args.notes
    path = write_result("soak", result)
    chart(outcome["record"].samples, outcome["series"], outcome["phases"], outcome["pauses"], RESULTS_DIR / "soak.png")
    shown = {k: v for k, v in result.items() if k not in ("memory_series", "operations", "error_examples")}
    print(path, shown)


if __name__ == "__main__":
    main()
