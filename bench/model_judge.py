"""Can the local language model tell a question memory answers from one it does not, given what recall returns?

Issue 44's abstention goal (most LongMemEval abstention questions answered "nothing relevant", almost no answerable
one) is out of reach of the offline signals (docs/relevance.md); this asks whether the one model this project can run
here (Gemma 3 270M, the `local-model` extra, through llama.cpp) could be the judge. For each ingested LongMemEval
development question (the answerable ones and the abstention ones, as bench/abstention.py selects them), recall's
first `--items` items (the names gate off, asked at the question's date by the user) are given to the model with the
question, and the model's preference for "Yes" over "No" (the difference of the two tokens' logits, one forward pass)
is the score. Reported: the AUC of answerable over abstention scores (0.5: chance), and at the threshold that flags
most abstention questions with at most 3% of answerable ones flagged, the share flagged.

    ~/.cache/engram/venv/bin/python -m bench.model_judge --model /path/to/gemma-3-270m-q4_k_m.gguf
"""

from __future__ import annotations

import argparse
import os
from typing import Any

import numpy as np
from tqdm import tqdm

from bench.abstention import ingested, lme_questions
from bench.common import write_result
from bench.longmemeval import ADDRESSEE, ASKER, space_of
from engram.embedding import get_embedder
from engram.llamacpp_model import gguf_file
from engram.settings import get_settings
from graph.driver import get_driver
from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest

ITEM_CHARS = 400  # each item's text, cut: five items and the question stay well inside the context
MAX_FLAGGED = 0.03  # the goal's bound on answerable questions wrongly emptied


def prompt(question: str, notes: list[str]) -> str:
    """Gemma's chat turn asking whether the notes answer the question."""
    listed = "\n".join(f"{i + 1}. {note[:ITEM_CHARS]}" for i, note in enumerate(notes))
    return (
        f"<start_of_turn>user\nNotes from memory:\n{listed}\n\nQuestion: {question}\n"
        "Do the notes contain the answer to the question? Answer Yes or No.<end_of_turn>\n<start_of_turn>model\n"
    )


def auc(positive: list[float], negative: list[float]) -> float:
    """The probability that a positive scores above a negative (ties count half)."""
    pairs = [(p > n) + 0.5 * (p == n) for p in positive for n in negative]
    return sum(pairs) / len(pairs) if pairs else float("nan")


def flagged_at_bound(answerable: list[float], abstaining: list[float]) -> dict[str, float]:
    """The threshold flagging (score below it) most abstention questions with at most MAX_FLAGGED of answerable."""
    best = {"threshold": float("-inf"), "abstention_flagged": 0.0, "answerable_flagged": 0.0}
    for threshold in sorted({*answerable, *abstaining}):
        wrong = sum(s < threshold for s in answerable) / len(answerable)
        right = sum(s < threshold for s in abstaining) / len(abstaining)
        if wrong <= MAX_FLAGGED and right > best["abstention_flagged"]:
            best = {"threshold": threshold, "abstention_flagged": right, "answerable_flagged": wrong}
    return {k: round(v, 3) for k, v in best.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description="The local model as the judge of 'nothing relevant'")
    parser.add_argument("--model", default="gemma3-270m", help="a known model name or a .gguf file")
    parser.add_argument("--items", type=int, default=5, help="recall's first items shown to the model")
    parser.add_argument("--name", default="model_judge", help="results file name (bench/results/NAME.json)")
    args = parser.parse_args()

    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import llama_cpp

    gguf = gguf_file(args.model, get_settings().state_dir)
    llm = llama_cpp.Llama(str(gguf), n_ctx=4096, verbose=False)
    yes, no = (llm.tokenize(word, add_bos=False)[0] for word in (b"Yes", b"No"))
    embedder = get_embedder()
    engine = RecallEngine(
        get_driver(), get_settings().neo4j.database, embedder.encode, embedder.count_tokens,
        config=RecallConfig(unmentioned_names=False),
    )  # fmt: skip
    answerable, abstaining = lme_questions(0)
    rows: list[dict[str, Any]] = []
    for question in tqdm(ingested([*abstaining, *answerable]), desc="questions"):
        result = engine.recall(
            RecallRequest(
                space=space_of(question), query=question.text, limit=args.items, token_budget=4096,
                asker=ASKER, addressee=ADDRESSEE, now=question.asked_at,
            )
        )  # fmt: skip
        tokens = llm.tokenize(prompt(question.text, [item.text for item in result.items]).encode(), add_bos=True)
        llm.reset()  # type: ignore[no-untyped-call]
        llm.eval(tokens)
        logits = np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(llm._ctx.ctx, -1), shape=(llm.n_vocab(),))
        score = float(logits[yes] - logits[no])
        rows.append({"id": question.id, "abstention": question.abstention, "score": round(score, 4)})
    engine.close()
    scores_answerable = [r["score"] for r in rows if not r["abstention"]]
    scores_abstaining = [r["score"] for r in rows if r["abstention"]]
    results = {
        "model": str(gguf),
        "items": args.items,
        "answerable_questions": len(scores_answerable),
        "abstention_questions": len(scores_abstaining),
        "auc": round(auc(scores_answerable, scores_abstaining), 3),
        "at_3pct_answerable": flagged_at_bound(scores_answerable, scores_abstaining),
        "rows": rows,
        "protocol": "recall's first items (names gate off) and the question in Gemma's chat turn; score = logit('Yes') "
        "- logit('No') of the next token; AUC of answerable over abstention scores",
    }
    print(write_result(args.name, results))
    print({k: results[k] for k in ("answerable_questions", "abstention_questions", "auc", "at_3pct_answerable")})


if __name__ == "__main__":
    main()
