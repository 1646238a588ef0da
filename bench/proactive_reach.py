"""How far flat retrieval reaches on ProactiveMemBench: for every mapped candidate of the given domains' triggers, the
best rank of a turn about it in the best flat system (hybrid_speaker) and in any flat ranking (BM25, dense,
hybrid_speaker). It says how many candidates a memory system must bring up from where text matching leaves them to
miss at most a given share of the best flat system's misses at 5 (issue 45's goal: 0.6x). No stack needed.

    ~/.cache/engram/venv/bin/python -m bench.proactive_reach [--domains fitness music] [--data DIR]
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from pathlib import Path

from bench.common import write_result
from bench.flat_baselines import FlatIndex
from bench.proactive import DATA, GOAL_RATIO, turn_vectors
from bench.proactive_data import SPEAKERS, load
from engram.embedding import get_embedder

BANDS = ((5, "1-5"), (10, "6-10"), (20, "11-20"), (50, "21-50"))


def band(rank: int) -> str:
    """The band of a 0-based rank (beyond 50 when no turn about the candidate is within the first 50)."""
    return next((name for bound, name in BANDS if rank < bound), "beyond 50")


def main() -> None:
    parser = argparse.ArgumentParser(description="where flat retrieval leaves ProactiveMemBench's candidates")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--domains", nargs="*", default=["fitness", "music"], help="the held-out domains")
    args = parser.parse_args()
    embedder = get_embedder()
    best_flat: Counter[str] = Counter()
    any_flat: Counter[str] = Counter()
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    for name in args.domains:
        domain = load(args.data / name)
        index = FlatIndex(
            [t.id for t in domain.turns], [t.text for t in domain.turns], turn_vectors(domain, embedder.encode)
        )
        users = {t.id for t in domain.turns if t.speaker == SPEAKERS["user"]}
        for trigger in domain.triggers:
            vector = embedder.encode([trigger.utterance])[0]
            speaker = index.hybrid_preferring(trigger.utterance, vector, users)
            rankings = (speaker, index.dense(vector), index.bm25(trigger.utterance))
            for about in trigger.about:
                ranks = [next((i for i, t in enumerate(r) if t in about), 10**6) for r in rankings]
                best_flat[band(ranks[0])] += 1
                any_flat[band(min(ranks))] += 1
                by_kind[trigger.kind][band(ranks[0])] += 1
    candidates = sum(best_flat.values())
    misses = candidates - best_flat["1-5"]
    allowed = int(GOAL_RATIO * misses)
    write_result(
        "proactive_reach",
        {
            "domains": args.domains,
            "candidates": candidates,
            "hybrid_speaker_band": dict(best_flat),
            "any_flat_band": dict(any_flat),
            "hybrid_speaker_band_by_kind": {kind: dict(c) for kind, c in sorted(by_kind.items())},
            "goal": {
                "hybrid_speaker_misses_at_5": misses,
                "allowed_misses": allowed,
                "to_surface_at_5": candidates - allowed,
                "beyond_rank_20_in_every_flat_ranking": any_flat["21-50"] + any_flat["beyond 50"],
            },
            "note": "rank bands are 1-based over distinct turns; a candidate's rank is its best turn's",
        },
    )
    print(f"{candidates} candidates; hybrid_speaker at 5: {best_flat['1-5']}; the goal needs {candidates - allowed}")
    print("best flat system's bands:", dict(best_flat), "| any flat ranking's bands:", dict(any_flat))


if __name__ == "__main__":
    main()
