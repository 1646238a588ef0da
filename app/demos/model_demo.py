"""The opt-in model demo (`make demo-model`): the sample ingested as in `make demo`, then, with the local model
(ENGRAM_LOCAL_MODEL, default gemma3-270m), what it extracts from the first turns beside the offline rules, and for
each question the answer recalled with offline keys beside the one recalled with the keys the model named, with
timings. The stack's worker keeps its own extractor (offline unless started with ENGRAM_EXTRACTOR_KIND=transformers):
what the model extracts here is shown, not stored.

    python -m app.demos.model_demo examples/sample.jsonl "What did Maya make for her sister?" ...
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import redis
import typer
from rich.console import Console
from rich.table import Table

from engram.concept_keys.decoder import KeyDecoder
from engram.embedding import get_embedder
from engram.extraction.base import EpisodeContext, ExtractionError
from engram.extraction.llm import LLMExtractor, outlines_generate_fn
from engram.extraction.offline import OfflineExtractor
from engram.formats.loading import validate_records
from engram.local_model import load
from engram.settings import get_settings
from graph.concept_keys.tries import KeySchemas
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.logic.abstract import ConstrainedAbstractor, OfflineAbstractor
from graph.recall.models import RecallRequest
from workers.jobs import JobState
from workers.resources import get_job_store
from workers.tasks.ingest import submit_ingest

console = Console()


def _ingest(space: str, file: Path) -> None:
    records = validate_records([json.loads(line) for line in file.read_text(encoding="utf-8").splitlines() if line])
    job_id = submit_ingest(space, records)
    store = get_job_store()
    started = time.perf_counter()
    while (status := store.status(job_id)).state not in (JobState.SUCCEEDED, JobState.FAILED):
        if time.perf_counter() - started > 600:
            raise SystemExit(f"job {job_id} did not finish in 10 minutes (is the worker running? make up)")
        time.sleep(0.5)
    if status.state is JobState.FAILED:
        raise SystemExit(f"job {job_id} failed: {status.error}")
    console.print(f"ingested {file} into {space} through the worker in {time.perf_counter() - started:.1f} s")


def _turns(file: Path, count: int) -> list[EpisodeContext]:
    episodes: list[EpisodeContext] = []
    for line in file.read_text(encoding="utf-8").splitlines():
        record: dict[str, Any] = json.loads(line) if line.strip() else {}
        for session in record.get("sessions", []):
            speakers = sorted({t["speaker"] for t in session["turns"]})
            for turn in session["turns"]:
                other = next((s for s in speakers if s != turn["speaker"]), "")
                episodes.append(EpisodeContext(turn["id"], turn["text"], turn["speaker"], other))
    return episodes[:count]


def demo(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="JSONL records to ingest")],
    questions: Annotated[list[str], typer.Argument(help="questions to recall answers for")],
    space: Annotated[str, typer.Option("--space", "-s")] = "demo-model",
    turns: Annotated[int, typer.Option(help="turns the model extracts from (each takes seconds to a minute)")] = 3,
    extract_tokens: Annotated[int, typer.Option(help="new tokens per turn the model may write")] = 160,
) -> None:
    settings = get_settings()
    spec = settings.local.model or "gemma3-270m"
    _ingest(space, file)
    loaded = load(spec, settings.state_dir)
    console.print(f"language model {spec}: {loaded.description}")
    import outlines

    model = outlines.from_transformers(loaded.model, loaded.tokenizer)

    started = time.perf_counter()
    extractor = LLMExtractor(outlines_generate_fn(model), attempts=1)
    extractor._max_new_tokens = extract_tokens  # a demo's budget: the product's is the schema's worst case
    console.print(f"extraction schema compiled for the model's vocabulary in {time.perf_counter() - started:.1f} s")
    table = Table(title="what the model extracts from a turn, beside the offline rules (shown, not stored)")
    for column in ("turn", "offline rules", "model", "model s"):
        table.add_column(column)
    for episode in _turns(file, turns):
        offline = "\n".join(d.text for d in OfflineExtractor().extract([episode]))
        started = time.perf_counter()
        try:
            found = "\n".join(d.text for d in extractor.extract([episode])) or "(nothing)"
        except ExtractionError as error:
            found = f"rejected: {error}"
        table.add_row(f"{episode.speaker}: {episode.text}", offline, found, f"{time.perf_counter() - started:.1f}")
    console.print(table)

    embedder = get_embedder()
    driver = get_driver()
    database = settings.neo4j.database
    schemas = KeySchemas(driver, database, redis.Redis.from_url(settings.redis.url), settings.keys.reconcile_s)
    constrained = ConstrainedAbstractor(KeyDecoder(model), schemas, settings.keys.beams, OfflineAbstractor())
    engines = {
        "offline keys": RecallEngine(driver, database, embedder.encode, embedder.count_tokens),
        "model keys": RecallEngine(driver, database, embedder.encode, embedder.count_tokens, abstractor=constrained),
    }
    for question in questions:
        table = Table(title=f"recall {question!r}")
        for column in ("keys", "named", "first answer", "s"):
            table.add_column(column)
        for name, engine in engines.items():
            started = time.perf_counter()
            result = engine.recall(RecallRequest(space=space, query=question, token_budget=256))
            spent = time.perf_counter() - started
            named = ", ".join(constrained.named_keys(question, space)) if name == "model keys" else "(keyphrases)"
            answer = result.items[0].text if result.items else "(nothing)"
            table.add_row(name, named, answer, f"{spent:.1f}")
        console.print(table)


if __name__ == "__main__":
    typer.run(demo)
