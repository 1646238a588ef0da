"""What an embedding backend does to recall: LongMemEval haystacks written and recalled with each backend's vectors,
in one run.

For each backend (bench/embedding.py's names) every chosen question's haystack is loaded by the bulk importer
(workers/bulk_import.py, the code behind `engram import`: the same graph as ingestion) with that backend's
vectors into a space of its own (`bench-emb-<backend>-<question>`, never the spaces of bench.longmemeval), then the
question recalls from it as in bench.longmemeval (asked at its date, query embedded by the same backend). The
shared stack's worker is not involved, so its backend does not matter. Needs Neo4j and Redis (`make up`). Writes
bench/results/embedding_recall.json (after each backend, so a cut run keeps what it measured).

    ~/.cache/engram/venv/bin/python -m bench.embedding_recall --per-type 1
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from tqdm import tqdm

from bench.common import git_commit, write_result
from bench.embedding import BACKENDS, REFERENCE
from bench.locomo_recall import engram_units
from bench.longmemeval import ADDRESSEE, ASKER, DATA, aggregate, metrics, select
from bench.longmemeval_data import QUESTION_TYPES, LmeQuestion, load
from engram.embedding import Embedder
from engram.extraction.factory import ExtractionSettings, create_extractor
from engram.formats.loading import validate_records
from engram.settings import EmbeddingSettings, get_settings
from graph.admin import delete_space
from graph.concept_keys.tries import create_key_namer
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest
from workers.bulk_import import BulkImporter
from workers.resources import get_redis

HEADLINE = ("turnR@5", "turnR@10", "sessAny@5", "R@1024tok")


def space_of(backend: str, question: LmeQuestion) -> str:
    return f"bench-emb-{backend}-{question.id.lower().replace('_', '-')}"


def load_haystack(embedder: Embedder, space: str, question: LmeQuestion) -> float:
    database = get_settings().neo4j.database
    delete_space(get_driver(), database, space)
    importer = BulkImporter(
        get_driver(),
        database,
        space,
        create_extractor(ExtractionSettings(), create_key_namer),
        embedder.encode,
        get_redis(),
    )
    return importer.run(validate_records([question.record()])).seconds


def recall(embedder: Embedder, space: str, question: LmeQuestion, hops: int) -> dict[str, float]:
    engine = RecallEngine(get_driver(), get_settings().neo4j.database, embedder.encode, embedder.count_tokens)
    result = engine.recall(
        RecallRequest(
            space=space, query=question.text, token_budget=32_768, hop_limit=hops, limit=200,
            asker=ASKER, addressee=ADDRESSEE, now=question.asked_at,
        )
    )  # fmt: skip
    ranked, units, _ = engram_units(result, embedder.count_tokens)
    return metrics(question, ranked, units)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--per-type", type=int, default=1, help="the first N questions of each type")
    parser.add_argument("--types", nargs="*", default=[], choices=QUESTION_TYPES, help="only these question types")
    parser.add_argument("--backends", default="onnx-fp32,torch,onnx-int8", help="from " + ", ".join(BACKENDS))
    parser.add_argument("--hops", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the spaces afterwards")
    parser.add_argument("--name", default="embedding_recall", help="results file name (bench/results/NAME.json)")
    args = parser.parse_args()
    names = [n for n in args.backends.split(",") if n]
    if any(n not in BACKENDS for n in names):
        parser.error(f"--backends: names from {', '.join(BACKENDS)}")

    questions = select(load(DATA), args.types, args.per_type)
    result: dict[str, Any] = {"questions": [q.id for q in questions], "backends": {}, "commit": git_commit()}
    for name in names:
        embedder = Embedder(EmbeddingSettings(**BACKENDS[name], borrow_idle_cores=False))
        rows: list[tuple[LmeQuestion, dict[str, float]]] = []
        load_seconds = recall_seconds = 0.0
        for question in tqdm(questions, desc=name, unit="question"):
            space = space_of(name, question)
            load_seconds += load_haystack(embedder, space, question)
            started = time.perf_counter()
            rows.append((question, recall(embedder, space, question, args.hops)))
            recall_seconds += time.perf_counter() - started
            if not args.keep:
                delete_space(get_driver(), get_settings().neo4j.database, space)
        result["backends"][name] = {
            "recall": aggregate(rows),
            "import_seconds": round(load_seconds, 1),
            "recall_seconds": round(recall_seconds, 1),
        }
        if REFERENCE in result["backends"]:
            reference = result["backends"][REFERENCE]["recall"]["all"]
            result["difference_vs_torch_all"] = {
                other: {k: round(data["recall"]["all"][k] - reference[k], 1) for k in HEADLINE}
                for other, data in result["backends"].items()
                if other != REFERENCE
            }
        path = write_result(args.name, result)
        print(name, {k: result["backends"][name]["recall"]["all"][k] for k in HEADLINE}, "->", path)


if __name__ == "__main__":
    main()
