"""Embedding backends against each other in one run: throughput per backend, thread count and batch policy, and
agreement with the torch vectors on 10,000 real texts.

The texts: LoCoMo turns, the propositions and concept phrases the offline extractor draws from them, and
LongMemEval turns (as the pipeline embeds them: "speaker: text"), deduplicated, sampled with a fixed seed.
Throughput: a fixed subset of them (`--timing-texts`), every backend x thread count in every round (`--rounds`),
interleaved `--chunk` texts at a time, the median round reported, so a busy machine slows every backend alike;
texts/s and tokens/s (real word pieces with [CLS]/[SEP], not padding). Agreement: every text through each backend at
the machine's thread count, cosine against torch's vector. Needs no stack. Writes bench/results/embedding.json.

    ~/.cache/engram/venv/bin/python -m bench.embedding
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bench.common import LOCOMO_PATH, RESULTS_DIR, SHARED_DATA, git_commit, write_result
from bench.locomo_format import locomo_records
from bench.longmemeval_data import load as load_longmemeval
from engram.embedding import Embedder
from engram.extraction.base import EpisodeContext
from engram.extraction.offline import OfflineExtractor
from engram.formats.records import ConversationRecord
from engram.settings import EmbeddingSettings
from workers.pipeline.standardize import turn_text

LONGMEMEVAL_PATH = SHARED_DATA / "longmemeval" / "longmemeval_s_dev100.json.gz"
# backend name -> settings over the defaults
BACKENDS: dict[str, dict[str, Any]] = {
    "torch": {"backend": "torch"},
    "onnx-fp32": {"backend": "onnx", "onnx_variant": "fp32"},
    "onnx-int8": {"backend": "onnx", "onnx_variant": "int8"},
}
REFERENCE = "torch"
COSINE_FLOOR = 0.99  # a backend below it on any text is not chosen (issue 48)


def real_texts(total: int, seed: int) -> dict[str, list[str]]:
    """`total` distinct texts by source: LoCoMo turns, their propositions and concept phrases, LongMemEval turns."""
    rng = random.Random(seed)
    records = [r for r in locomo_records(LOCOMO_PATH.read_text()) if isinstance(r, ConversationRecord)]
    turns = [
        (t.speaker, turn_text(t.speaker, t.text, t.image_caption)) for r in records for s in r.sessions for t in s.turns
    ]
    extractor = OfflineExtractor()
    drafts = extractor.extract(
        [EpisodeContext(episode_id=f"e{i}", text=text, speaker=speaker) for i, (speaker, text) in enumerate(turns)]
    )
    seen: set[str] = set()

    def distinct(texts: list[str], most: int) -> list[str]:
        fresh = [t for t in dict.fromkeys(texts) if t.strip() and t not in seen]
        rng.shuffle(fresh)
        taken = fresh[:most]
        seen.update(taken)
        return taken

    sources = {
        "locomo_turns": distinct([text for _, text in turns], total * 35 // 100),
        "propositions": distinct([d.text for d in drafts], total * 25 // 100),
        "concept_phrases": distinct([p for d in drafts for p in d.concept_phrases], total * 15 // 100),
    }
    lme = [turn_text(t.speaker, t.text, "") for q in load_longmemeval(LONGMEMEVAL_PATH) for t in q.turns]
    sources["longmemeval_turns"] = distinct(lme, total - sum(len(v) for v in sources.values()))
    return sources


def embedder(name: str, threads: int, batch_tokens: int | None = None) -> Embedder:
    extra: dict[str, Any] = {"batch_tokens": batch_tokens} if batch_tokens else {}
    # Idle-core borrowing off: each figure is for exactly `threads` threads.
    return Embedder(EmbeddingSettings(**BACKENDS[name], **extra, borrow_idle_cores=False), threads=threads)


def timed(model: Embedder, texts: list[str], threads: int) -> tuple[float, NDArray[np.float32]]:
    """Seconds to encode `texts`, and the vectors."""
    import torch

    torch.set_num_threads(threads)  # process-wide: the torch backend's threads (ONNX sessions hold their own)
    started = time.perf_counter()
    vectors = model.encode(texts)
    return time.perf_counter() - started, vectors


def interleaved_rounds(
    models: dict[tuple[str, int], Embedder], texts: list[str], rounds: int, chunk: int
) -> dict[tuple[str, int], list[float]]:
    """Seconds per (backend, threads) and round to encode `texts`. Each round takes the texts `chunk` at a time and
    runs every configuration on a chunk before the next chunk, starting with a different one each time: on a machine
    shared with other jobs, a burst of load lasting a few seconds then falls on every configuration alike (whole
    passes one after another left one configuration 5x slower than in the round before)."""
    keys = list(models)
    runs: dict[tuple[str, int], list[float]] = {key: [] for key in keys}
    for round_ in range(rounds):
        seconds = dict.fromkeys(keys, 0.0)
        for index, start in enumerate(range(0, len(texts), chunk)):
            part = texts[start : start + chunk]
            shift = (index + round_) % len(keys)
            for key in keys[shift:] + keys[:shift]:
                seconds[key] += timed(models[key], part, key[1])[0]
        for key in keys:
            runs[key].append(seconds[key])
            print(f"round {round_ + 1}: {key[0]} x{key[1]} {seconds[key]:.2f} s", flush=True)
    return runs


def cosines(vectors: NDArray[np.float32], reference: NDArray[np.float32]) -> dict[str, float]:
    dots = np.sum(vectors * reference, axis=1)
    return {
        "cosine_min": round(float(dots.min()), 5),
        "cosine_p001": round(float(np.quantile(dots, 0.001)), 5),
        "cosine_mean": round(float(dots.mean()), 6),
        "texts_below_0_99": int((dots < COSINE_FLOOR).sum()),
    }


def neighbour_overlap(vectors: NDArray[np.float32], reference: NDArray[np.float32], queries: int, k: int = 10) -> float:
    """Mean share of torch's k nearest texts (by cosine, the query itself left out) that the backend's vectors also
    put in their k nearest, over the first `queries` texts: what the vectors do to a dense ranking."""
    shared = 0
    for row in range(min(queries, len(vectors))):
        found = []
        for space in (vectors, reference):
            scores = space @ space[row]
            scores[row] = -np.inf
            found.append(set(np.argpartition(-scores, k)[:k].tolist()))
        shared += len(found[0] & found[1])
    return round(shared / (k * min(queries, len(vectors))), 4)


AGREEMENT_KEYS = (
    "agreement_with_torch", "agreement_min_by_source", "full_set_seconds", "full_set_texts_per_s", "texts",
    "texts_by_source",
)  # fmt: skip


def agreement_pass(
    names: list[str],
    models: dict[tuple[str, int], Embedder],
    texts: list[str],
    sources: dict[str, list[str]],
    threads: int,
    seed: int,
    queries: int,
) -> dict[str, Any]:
    """Every text through every backend on `threads` threads: cosine with torch's vectors, overall and by source,
    and the top-10 neighbour overlap."""
    vectors: dict[str, NDArray[np.float32]] = {}
    full_seconds: dict[str, float] = {}
    for name in names:
        full_seconds[name], vectors[name] = timed(models[(name, threads)], texts, threads)
        print(f"{name}: {len(texts)} texts in {full_seconds[name]:.1f} s", flush=True)
    agreement = {name: cosines(vectors[name], vectors[REFERENCE]) for name in names if name != REFERENCE}
    for name in agreement:
        # Queries spread over the sources (texts are grouped by source).
        spread = np.random.default_rng(seed).permutation(len(texts))[:queries]
        agreement[name]["top10_neighbour_overlap"] = neighbour_overlap(
            vectors[name][spread], vectors[REFERENCE][spread], len(spread)
        )
    by_source: dict[str, dict[str, float]] = {}
    start = 0
    for source, group in sources.items():
        rows = slice(start, start + len(group))
        by_source[source] = {
            name: round(float(np.sum(vectors[name][rows] * vectors[REFERENCE][rows], axis=1).min()), 5)
            for name in agreement
        }
        start += len(group)
    return {
        "agreement_with_torch": agreement,
        "agreement_min_by_source": by_source,
        "full_set_seconds": {n: round(s, 1) for n, s in full_seconds.items()},
        "full_set_texts_per_s": {n: round(len(texts) / s, 1) for n, s in full_seconds.items()},
        "texts": len(texts),
        "texts_by_source": {k: len(v) for k, v in sources.items()},
    }


def earlier_agreement(name: str, names: list[str]) -> dict[str, Any]:
    """The agreement figures of results file `name` as last written, with the run that measured them: vectors are
    deterministic for a given export and library versions, so a --timing-only run keeps them instead of spending
    most of an hour re-encoding 10,000 texts on every backend. Empty when the file lacks a backend of `names`."""
    path = RESULTS_DIR / f"{name}.json"
    if not path.exists():
        return {}
    earlier = json.loads(path.read_text())
    if not all(n in earlier.get("agreement_with_torch", {}) for n in names if n != REFERENCE):
        return {}
    return {key: earlier[key] for key in AGREEMENT_KEYS if key in earlier} | {
        "agreement_measured_at": earlier.get("agreement_measured_at") or earlier.get("measured_at"),
        "agreement_commit": earlier.get("agreement_commit") or earlier.get("commit"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--texts", type=int, default=10_000, help="real texts for the agreement check")
    parser.add_argument("--timing-texts", type=int, default=600, help="of them, timed per backend and thread count")
    parser.add_argument("--rounds", type=int, default=2, help="timing rounds (interleaved); the median is reported")
    parser.add_argument("--chunk", type=int, default=50, help="timed texts per turn of the interleaving")
    parser.add_argument("--threads", default="1,2", help="thread counts to time (comma-separated)")
    parser.add_argument("--batch-tokens", default="1024,4096", help="other batch_tokens to time (onnx-fp32 and torch, "
                        "all threads) besides the default; empty: none")  # fmt: skip
    parser.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated, from " + ", ".join(BACKENDS))
    parser.add_argument("--neighbour-queries", type=int, default=2000, help="texts whose 10 nearest are compared")
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument("--timing-only", action="store_true", help="time only; keep the agreement figures of the "
                        "results file (NAME) with the run that measured them")  # fmt: skip
    parser.add_argument("--name", default="embedding", help="results file name (bench/results/NAME.json)")
    args = parser.parse_args()
    names = [n for n in args.backends.split(",") if n]
    if REFERENCE not in names or any(n not in BACKENDS for n in names):
        parser.error(f"--backends: names from {', '.join(BACKENDS)}, torch included (the reference)")
    thread_counts = [int(t) for t in args.threads.split(",")]
    sweep = [int(b) for b in args.batch_tokens.split(",") if b]

    sources = real_texts(args.texts, args.seed)
    texts = [t for group in sources.values() for t in group]
    timing = random.Random(args.seed).sample(texts, min(args.timing_texts, len(texts)))
    print({k: len(v) for k, v in sources.items()}, f"{len(texts)} texts, {len(timing)} timed")

    models = {(name, threads): embedder(name, threads) for name in names for threads in thread_counts}
    counter = models[(REFERENCE, thread_counts[0])]
    tokens = sum(min(counter.count_tokens(t) + 2, 256) for t in timing)  # what the model reads (its window: 256)
    for (_, threads), model in models.items():
        timed(model, timing[:64], threads)  # warm-up: first calls allocate
    runs = interleaved_rounds(models, timing, args.rounds, args.chunk)

    def figures(seconds: list[float]) -> dict[str, Any]:
        median = statistics.median(seconds)
        return {
            "seconds_runs": [round(s, 3) for s in seconds],
            "seconds": round(median, 3),
            "texts_per_s": round(len(timing) / median, 1),
            "tokens_per_s": round(tokens / median, 1),
        }

    default_batch_tokens = EmbeddingSettings().batch_tokens
    throughput = [
        {"backend": name, "threads": threads, "batch_tokens": default_batch_tokens, **figures(runs[(name, threads)])}
        for (name, threads) in models
    ]
    most = max(thread_counts)
    for batch_tokens in sweep:
        for name in [n for n in ("torch", "onnx-fp32") if n in names]:
            seconds = timed(embedder(name, most, batch_tokens), timing, most)[0]
            throughput.append({"backend": name, "threads": most, "batch_tokens": batch_tokens, **figures([seconds])})
            print(f"{name} x{most} batch_tokens {batch_tokens}: {seconds:.2f} s", flush=True)

    if args.timing_only:
        carried = earlier_agreement(args.name, names)
        if not carried:
            parser.error(f"--timing-only: bench/results/{args.name}.json holds no agreement of {', '.join(names)}")
    else:
        carried = agreement_pass(names, models, texts, sources, most, args.seed, args.neighbour_queries)
    agreement = carried["agreement_with_torch"]

    def rate(name: str, threads: int) -> float:
        return float(statistics.median(runs[(name, threads)]))

    speedups = {
        name: {str(t): round(rate(REFERENCE, t) / rate(name, t), 2) for t in thread_counts}
        for name in names
        if name != REFERENCE
    }
    eligible = [n for n in agreement if agreement[n]["cosine_min"] >= COSINE_FLOOR]
    chosen = max(eligible, key=lambda n: speedups[n][str(most)], default=REFERENCE)
    result: dict[str, Any] = {
        "chosen": chosen,
        "chosen_rule": f"the fastest at {most} threads whose cosine with torch is >= {COSINE_FLOOR} on every text",
        "speedup_vs_torch": speedups.get(chosen, {str(t): 1.0 for t in thread_counts})[str(most)],
        "cosine_min": agreement[chosen]["cosine_min"] if chosen in agreement else 1.0,
        "speedup_vs_torch_by_threads": speedups,
        **carried,
        "throughput": throughput,
        "timing_texts": len(timing),
        "timing_tokens": tokens,
        "rounds": args.rounds,
        "timing_policy": f"per round, {args.chunk} texts at a time through every configuration in turn (rotating "
        "which goes first); the round's seconds are summed over chunks, the median round reported",
        "batch_policy": "both backends: Embedder._batches (texts ordered by token length, a pass holds at most "
        f"batch_size={EmbeddingSettings().batch_size} texts and batch_tokens padded tokens)",
        "commit": git_commit(),
    }
    path = write_result(args.name, result)
    print(path.read_text())


if __name__ == "__main__":
    main()
