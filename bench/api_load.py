"""GraphQL API under load: concurrent recall queries over loopback while an ingest job runs.

In the same run, three measurements of the same LoCoMo questions against the same space:
  1. in-process: `RecallEngine.recall` called directly, one at a time (the baseline);
  2. HTTP sequential: the `recall` GraphQL query to the running API, one at a time (the API's overhead);
  3. MCP sequential: the `recall` tool through the MCP SDK's client, over streamable HTTP (the API's /mcp, which
     runs the GraphQL query in-process) and over stdio (`engram mcp`, which sends it to the API over HTTP);
  4. HTTP concurrent: N clients at once while an ingest job (another LoCoMo conversation) runs on the worker.
Needs the stack running (`make up`). Writes bench/results/api_load.json and api_load.png.

    ~/.cache/engram/venv/bin/python -m bench.api_load [--queries 150] [--concurrency 4]
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from tqdm import tqdm

from app.mcp.client_sessions import http_session, stdio_session
from bench.common import LOCOMO_PATH, RESULTS_DIR, write_result
from bench.locomo_data import load as load_locomo
from bench.locomo_format import locomo_records
from bench.mcp_caller import McpRecaller
from engram.embedding import get_embedder
from engram.settings import get_settings
from graph.admin import delete_space
from graph.api_keys import ApiKeyStore
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest

RECALL = """query($q: String!) { recall(query: $q, tokenBudget: 1024, limit: 10) {
  __typename ... on Recall { tokens items { id text score provenance { externalId } } } } }"""
INGEST = "mutation($r: JSON!) { ingest(input: {records: $r}) { __typename ... on Job { id } } }"
JOB = "query($id: ID!) { job(id: $id) { ... on Job { state } } }"
WARMUP = 10


def summary(latencies_s: list[float], wall_s: float, errors: int) -> dict[str, float]:
    ms = np.asarray(latencies_s) * 1000
    return {
        "requests": len(latencies_s),
        "errors": errors,
        "wall_s": round(wall_s, 3),
        "throughput_per_s": round(len(latencies_s) / wall_s, 2),
        "p50_ms": round(float(np.percentile(ms, 50)), 1),
        "p95_ms": round(float(np.percentile(ms, 95)), 1),
        "p99_ms": round(float(np.percentile(ms, 99)), 1),
        "mean_ms": round(float(statistics.fmean(ms)), 1),
    }


def timed(call: Callable[[str], bool], questions: list[str], concurrency: int, label: str) -> dict[str, float]:
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    bar = tqdm(total=len(questions), desc=label, unit="q")

    def one(question: str) -> None:
        nonlocal errors
        started = time.perf_counter()
        ok = call(question)
        elapsed = time.perf_counter() - started
        with lock:
            latencies.append(elapsed)
            errors += 0 if ok else 1
            bar.update()

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        list(pool.map(one, questions))
    bar.close()
    return summary(latencies, time.perf_counter() - started, errors)


def graphql_caller(http: httpx.Client) -> Callable[[str], bool]:
    def call(question: str) -> bool:
        response = http.post("/graphql", json={"query": RECALL, "variables": {"q": question}})
        body = response.json()
        return (
            response.status_code == 200 and not body.get("errors") and body["data"]["recall"]["__typename"] == "Recall"
        )

    return call


def post(http: httpx.Client, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = http.post("/graphql", json={"query": query, "variables": variables}).json()
    assert not body.get("errors"), body
    return body["data"]  # type: ignore[no-any-return]


def ingest_and_wait(http: httpx.Client, records: list[dict[str, Any]]) -> str:
    return ingest_state(http, post(http, INGEST, {"r": records})["ingest"]["id"])


def ingest_state(http: httpx.Client, job_id: str) -> str:
    while (state := post(http, JOB, {"id": job_id})["job"]["state"]) not in ("SUCCEEDED", "FAILED"):
        time.sleep(0.5)
    return str(state)


def chart(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = ["in_process", "http_sequential", "mcp_http_sequential", "mcp_stdio_sequential"]
    names.append("http_concurrent_during_ingest")
    labels = [
        "in-process\n(baseline)",
        "GraphQL/HTTP\nsequential",
        "MCP streamable\nHTTP sequential",
        "MCP stdio\nsequential",
        f"GraphQL/HTTP x{result['concurrency']}\nduring ingest",
    ]
    fig, ax = plt.subplots(figsize=(10, 4.5))
    x = np.arange(len(names))
    for offset, (metric, colour) in enumerate([("p50_ms", "#4c72b0"), ("p95_ms", "#dd8452"), ("p99_ms", "#c44e52")]):
        values = [result[n][metric] for n in names]
        bars = ax.bar(x + (offset - 1) * 0.27, values, 0.27, label=metric.replace("_ms", ""), color=colour)
        ax.bar_label(bars, fmt="%.0f", fontsize=8)
    ax.set_xticks(x, labels)
    ax.set_ylabel("recall latency (ms)")
    ax.set_title(f"Recall through GraphQL and MCP ({result['queries']} LoCoMo questions; 0 errors required)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description="GraphQL API load: concurrent recall while ingesting")
    parser.add_argument("--queries", type=int, default=150)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()

    settings = get_settings()
    driver, database = get_driver(), settings.neo4j.database
    _, questions = load_locomo(LOCOMO_PATH)
    raw = json.loads(LOCOMO_PATH.read_text())
    records = [r.model_dump(mode="json") for r in locomo_records(json.dumps(raw[:2]))]
    first_sample = raw[0]["sample_id"]
    texts = [q.text for q in questions if q.sample_id == first_sample][: args.queries]

    space, busy_space = f"bench-api-{int(time.time())}", f"bench-api-ingest-{int(time.time())}"
    keys = ApiKeyStore(driver, database)
    for name in (space, busy_space):
        keys.create_space(name)
    base = f"http://{settings.api.host}:{settings.api.port}"
    headers = {"Authorization": f"Bearer {keys.issue(space, 'bench').secret}"}
    busy_headers = {"Authorization": f"Bearer {keys.issue(busy_space, 'bench').secret}"}
    limits = httpx.Limits(max_connections=args.concurrency + 2)
    try:
        with httpx.Client(base_url=base, headers=headers, timeout=120, limits=limits) as http:
            print(f"ingesting conversation {first_sample} through the API into {space}")
            assert ingest_and_wait(http, [records[0]]) == "SUCCEEDED"
            embedder = get_embedder()
            engine = RecallEngine(driver, database, embedder.encode, embedder.count_tokens)

            def in_process(question: str) -> bool:
                engine.recall(RecallRequest(space=space, query=question, token_budget=1024, limit=10))
                return True

            call = graphql_caller(http)
            for question in texts[:WARMUP]:
                in_process(question)
                call(question)
            key = headers["Authorization"].removeprefix("Bearer ")
            with (
                McpRecaller(lambda: http_session(base, key)) as mcp_http,
                McpRecaller(lambda: stdio_session(base, key)) as mcp_stdio,
            ):
                for question in texts[:WARMUP]:
                    mcp_http.call(question)
                    mcp_stdio.call(question)
                baseline = timed(in_process, texts, 1, "in-process")
                sequential = timed(call, texts, 1, "http sequential")
                over_mcp_http = timed(mcp_http.call, texts, 1, "mcp http sequential")
                over_mcp_stdio = timed(mcp_stdio.call, texts, 1, "mcp stdio sequential")
            with httpx.Client(base_url=base, headers=busy_headers, timeout=600) as busy:
                load_started = time.perf_counter()
                job_id = post(busy, INGEST, {"r": [records[1]]})["ingest"]["id"]
                concurrent = timed(call, texts * 2, args.concurrency, f"http x{args.concurrency} + ingest")
                load_s = time.perf_counter() - load_started
                running_at_end = post(busy, JOB, {"id": job_id})["job"]["state"] not in ("SUCCEEDED", "FAILED")
                job_state = ingest_state(busy, job_id)
                ingest_s = time.perf_counter() - load_started
    finally:
        for name in (space, busy_space):
            delete_space(driver, database, name)

    result = {
        "queries": len(texts),
        "concurrency": args.concurrency,
        "in_process": baseline,
        "http_sequential": sequential,
        "mcp_http_sequential": over_mcp_http,
        "mcp_stdio_sequential": over_mcp_stdio,
        "http_concurrent_during_ingest": concurrent,
        "ingest_job_state": job_state,
        "ingest_running_when_load_ended": running_at_end,
        "load_s": round(load_s, 2),
        "ingest_s_from_load_start": round(ingest_s, 2),
        "ratio_http_over_in_process_p50": round(sequential["p50_ms"] / baseline["p50_ms"], 3),
        "ratio_http_over_in_process_mean": round(sequential["mean_ms"] / baseline["mean_ms"], 3),
        "ratio_mcp_http_over_graphql_http_p50": round(over_mcp_http["p50_ms"] / sequential["p50_ms"], 3),
        "ratio_mcp_stdio_over_graphql_http_p50": round(over_mcp_stdio["p50_ms"] / sequential["p50_ms"], 3),
        "ratio_mcp_http_over_in_process_p50": round(over_mcp_http["p50_ms"] / baseline["p50_ms"], 3),
        "ratio_concurrent_throughput_over_in_process": round(
            concurrent["throughput_per_s"] / baseline["throughput_per_s"], 3
        ),
        "api": base,
    }
    path = write_result("api_load", result)
    chart(result, RESULTS_DIR / "api_load.png")
    print(path.read_text())


if __name__ == "__main__":
    main()
