"""One user's recall among many users' memories, against the same user's memory alone, in one run.

A LoCoMo development conversation is one user's memory ("target"), loaded twice with the bulk importer (the code
behind `engram import --bulk`): into a space where it is the only user, and into a space where `--users - 1` other
users each hold a short invented chat (bench/synthetic_conversations.py, the same kinds of activities, places and
people as LoCoMo talks about). Each question of that conversation is recalled in both, alternately; reports the
turn-level figures in each, how many questions got the very same ranking, and the latency (question embedding
included) p50/p95 with their ratio. Needs the stack running (`make up`). Writes bench/results/scoped_recall.json.

    ~/.cache/engram/venv/bin/python -m bench.scoped_recall --users 1000
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from tqdm import tqdm

from bench.common import LOCOMO_PATH, git_commit, write_result
from bench.locomo_data import load
from bench.locomo_format import locomo_records
from bench.locomo_recall import engram_units
from bench.retrieval_metrics import turn_metrics
from bench.synthetic_conversations import ConversationGenerator
from engram.embedding import get_embedder
from engram.extraction.base import PropositionExtractor
from engram.extraction.factory import ExtractionSettings, create_extractor
from engram.formats.loading import validate_records
from engram.formats.records import Record
from engram.runtime import settle_heap
from engram.scope import memory_space
from engram.settings import get_settings
from graph.concept_keys.tries import create_key_namer
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest
from workers.bulk_import import BulkImporter
from workers.resources import get_redis

ALONE, CROWD, TARGET = "bench-scope-alone", "bench-scope-crowd", "target"
METRICS = ("R@5", "R@10", "R@25", "nDCG@10")


def episodes_of(space: str) -> int:
    records, _, _ = get_driver().execute_query("MATCH (e:Episode {space: $s}) RETURN count(e) AS n", s=space)
    return int(records[0]["n"])


def load_user(space: str, user: str, records: list[Record], extractor: PropositionExtractor) -> None:
    """The records into `user`'s memory in `space`."""
    importer = BulkImporter(
        get_driver(), get_settings().neo4j.database, memory_space(space, user), extractor, get_embedder().encode,
        get_redis(),
    )  # fmt: skip
    importer.run([r.model_copy(update={"user": user}) for r in records])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=1000, help="users of the crowded space, the target included")
    parser.add_argument("--turns", type=int, default=8, help="turns of each other user's chat")
    parser.add_argument("--conversation", type=int, default=0, help="which LoCoMo development conversation")
    parser.add_argument("--questions", type=int, default=80, help="its first N questions")
    args = parser.parse_args()

    turns, questions = load(LOCOMO_PATH)
    record = locomo_records(LOCOMO_PATH.read_text())[args.conversation]
    questions = [q for q in questions if q.sample_id == record.id][: args.questions]
    expected = len(turns[record.id])
    extractor = create_extractor(ExtractionSettings(), create_key_namer)
    for space in (ALONE, CROWD):
        if episodes_of(memory_space(space, TARGET)) != expected:
            load_user(space, TARGET, [record], extractor)
    generator = ConversationGenerator(seed=29, sessions=1, turns_per_session=args.turns)
    for index in tqdm(range(args.users - 1), desc="other users", unit="user"):
        user = f"user-{index:04d}"
        chat = validate_records([generator.conversation(index)])  # drawn even when loaded: the same chats each run
        if episodes_of(memory_space(CROWD, user)) != args.turns:
            load_user(CROWD, user, chat, extractor)

    embedder = get_embedder()
    engine = RecallEngine(get_driver(), get_settings().neo4j.database, embedder.encode, embedder.count_tokens)
    settle_heap()
    figures: dict[str, list[dict[str, float]]] = {ALONE: [], CROWD: []}
    latencies: dict[str, list[float]] = {ALONE: [], CROWD: []}
    same = 0
    for number, question in enumerate(tqdm(questions, desc="questions", unit="q")):
        ranked: dict[str, list[str]] = {}
        order = (ALONE, CROWD) if number % 2 == 0 else (CROWD, ALONE)  # neither always pays the colder cache
        for space in order:
            started = time.perf_counter()
            recalled = engine.recall(RecallRequest(space=memory_space(space, TARGET), query=question.text, limit=200,
                                                 token_budget=32_768))  # fmt: skip
            latencies[space].append(time.perf_counter() - started)
            ranked[space], units, _ = engram_units(recalled, embedder.count_tokens)
            figures[space].append(turn_metrics(ranked[space], units, question.evidence))
        same += ranked[ALONE] == ranked[CROWD]

    def summary(space: str) -> dict[str, Any]:
        rows, times = figures[space], latencies[space]
        return {
            **{m: round(statistics.mean(r[m] for r in rows), 2) for m in METRICS},
            "p50_ms": round(1000 * statistics.median(times), 1),
            "p95_ms": round(1000 * statistics.quantiles(times, n=20)[18], 1),
        }

    alone, crowd = summary(ALONE), summary(CROWD)
    result = {
        "alone": alone,
        "among_users": crowd,
        "users": args.users,
        "questions": len(questions),
        "same_ranking": same,
        "p50_ratio": round(crowd["p50_ms"] / alone["p50_ms"], 3),
        "p95_ratio": round(crowd["p95_ms"] / alone["p95_ms"], 3),
        "conversation": record.id,
        "commit": git_commit(),
        "command": f"python -m bench.scoped_recall --users {args.users} --turns {args.turns} "
        f"--conversation {args.conversation} --questions {args.questions}",
    }
    records, _, _ = get_driver().execute_query(
        "MATCH (e:Episode) WHERE e.space STARTS WITH $prefix RETURN count(e) AS n", prefix=f"{CROWD}/"
    )
    result["crowd_episodes"] = int(records[0]["n"])
    print(write_result("scoped_recall", result))
    print(result)


if __name__ == "__main__":
    main()
