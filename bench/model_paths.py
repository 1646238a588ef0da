"""The language-model paths measured against the offline ones, on a small stated sample (issue 46).

Model: the local-model extra's Gemma 3 270M (base, Q4_K_M GGUF converted once to fp32 transformers), on the CPU.

1. Key naming in recall: the same engine and spaces with the offline abstractor, and with the constrained one (the
   model names `--beams` concept keys of the space through the key trie; the offline matches are kept, as in the
   product). LoCoMo: questions of the already ingested development conversation (`bench-locomo-<id>`, by
   bench.locomo_recall), adversarial ones left out, turn R@10 / R@25; HotpotQA and MuSiQue: questions of the second
   (reporting) half over their ingested corpora (`bench-multihop-*`, by bench.multihop), passage R@5 / R@10. Nothing
   here was tuned. Seconds per query for both.
2. Extraction: offline rules against the model (the transformers extractor's loose schema and validation, greedy,
   `--extract-tokens` new tokens, one attempt: a rejected answer gives no statement) on the first `--turns` turns of
   that conversation: statements per turn, and the share supported by their turn (a statement naming a person or
   thing, i.e. a capitalised word or one of its concept words, that neither the turn, its speaker nor its addressee
   mentions is unsupported), seconds per turn.
3. The model's follow-up query on MuSiQue (`--parts followup`): for each question of the reporting half, recall once
   (offline keys), show the model the question and the titles and openings of the first `--followup-passages`
   paragraphs found, let it write the next search query (greedy, up to a line break or a closing quote,
   `--followup-tokens` new tokens), recall with that query, and fuse the two paragraph rankings (reciprocal rank,
   k=60). Passage R@5 / R@10 of the first recall alone, of the fused ranking, and of a control with no model (the
   first recall fused with a recall of its top paragraph's title); how many follow-ups only repeat the question (no
   content word of their own), how many copy a paragraph shown (every word of their own is in it), and the seconds.
4. Peak resident memory of the process, and the model's load time.

The stack must be running with those spaces ingested; nothing is written to them. The machine has 2 cores shared by
several sessions: timings are noisy, each figure beside its baseline measured in the same run.

    nice -n 10 ~/.cache/engram/venv/bin/python -m bench.model_paths [--questions 10] [--turns 10]
    nice -n 10 ~/.cache/engram/venv/bin/python -m bench.model_paths --parts followup [--followup-questions 20]

A run of some `--parts` keeps the other parts' figures of the results file as they were (each part says when).
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import redis
from tqdm import tqdm

from bench.common import LOCOMO_PATH, RESULTS_DIR, git_commit, write_result
from bench.locomo_data import load as load_locomo
from bench.locomo_recall import engram_units
from bench.locomo_recall import space_of as locomo_space
from bench.multihop import engram_paragraphs
from bench.multihop import space_of as multihop_space
from bench.multihop_data import load as load_multihop
from bench.retrieval_metrics import recall_at, turn_metrics
from engram.concept_keys.decoder import KeyDecoder
from engram.embedding import get_embedder
from engram.extraction.base import EpisodeContext, ExtractionError, PropositionExtractor
from engram.extraction.llm import LLMExtractor, outlines_generate_fn
from engram.extraction.offline import OfflineExtractor
from engram.ids import stable_id
from engram.local_model import LoadedModel, load
from engram.models import SourceKind
from engram.settings import get_settings
from graph.concept_keys.tries import KeySchemas
from graph.driver import get_driver
from graph.recall.engine import RecallEngine
from graph.recall.logic.abstract import ConstrainedAbstractor, OfflineAbstractor
from graph.recall.models import RecallRequest

WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")


def peak_rss_gb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6, 2)


class RecordingAbstractor(ConstrainedAbstractor):
    """The product's constrained abstractor, keeping what it named last and how long naming took."""

    last: tuple[list[str], float] = ([], 0.0)

    def named_keys(self, query: str, space: str) -> list[str]:
        started = time.perf_counter()
        keys = super().named_keys(query, space)
        self.last = (keys, time.perf_counter() - started)
        return keys


def engines(model: Any, beams: int) -> tuple[RecallEngine, RecallEngine, RecordingAbstractor]:
    settings = get_settings()
    embedder = get_embedder()
    driver = get_driver()
    schemas = KeySchemas(driver, settings.neo4j.database, redis.Redis.from_url(settings.redis.url), 300.0)
    constrained = RecordingAbstractor(KeyDecoder(model), schemas, beams, OfflineAbstractor())
    offline = RecallEngine(driver, settings.neo4j.database, embedder.encode, embedder.count_tokens)
    with_model = RecallEngine(
        driver, settings.neo4j.database, embedder.encode, embedder.count_tokens, abstractor=constrained
    )
    return offline, with_model, constrained


def timed(run: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    result = run(*args)
    return result, time.perf_counter() - started


def compare(
    name: str,
    cases: Sequence[tuple[str, str, Callable[[Any], dict[str, float]]]],
    offline: RecallEngine,
    with_model: RecallEngine,
    constrained: RecordingAbstractor,
) -> dict[str, Any]:
    """cases: (space, question, metrics of a recall result). Offline first, then with the model, per question."""
    rows: dict[str, list[dict[str, float]]] = {"offline": [], "model": []}
    seconds: dict[str, list[float]] = {"offline": [], "model": []}
    named: list[dict[str, Any]] = []
    for space, question, metrics in tqdm(cases, desc=name, unit="q"):
        request = RecallRequest(space=space, query=question, token_budget=32_768, limit=200)
        constrained.last = ([], 0.0)
        for system, engine in (("offline", offline), ("model", with_model)):
            result, spent = timed(engine.recall, request)
            rows[system].append(metrics(result))
            seconds[system].append(spent)
        keys, spent = constrained.last
        named.append({"question": question, "model_keys": keys, "naming_s": round(spent, 1)})
    summary: dict[str, Any] = {"questions": len(cases)}
    for system in rows:
        summary[system] = {m: round(100 * statistics.fmean(r[m] for r in rows[system]), 1) for m in rows[system][0]}
        summary[system]["s_per_query_p50"] = round(statistics.median(seconds[system]), 2)
    summary["model_vs_offline_s_per_query"] = round(
        statistics.median(seconds["model"]) / statistics.median(seconds["offline"]), 1
    )
    summary["named"] = named
    return summary


def locomo_cases(sample: str, count: int) -> list[tuple[str, str, Callable[[Any], dict[str, float]]]]:
    _, questions = load_locomo(LOCOMO_PATH)
    picked = [q for q in questions if q.sample_id == sample and q.category != "adversarial"]
    picked = picked[:: max(1, len(picked) // count)][:count]  # spread over the whole conversation
    embedder = get_embedder()

    def metrics(evidence: Sequence[str]) -> Callable[[Any], dict[str, float]]:
        def of(result: Any) -> dict[str, float]:
            ranked, units, _ = engram_units(result, embedder.count_tokens)
            found = turn_metrics(ranked, units, evidence)
            return {"turn R@10": found["R@10"], "turn R@25": found["R@25"]}

        return of

    return [(locomo_space(sample), q.text, metrics(q.evidence)) for q in picked]


def multihop_cases(dataset: str, count: int) -> list[tuple[str, str, Callable[[Any], dict[str, float]]]]:
    data = load_multihop(dataset)
    space = multihop_space(dataset)
    of_source = {stable_id("src", space, SourceKind.DOCUMENT.value, p.id): p.id for p in data.paragraphs}
    half = len(data.questions) // 2
    picked = data.questions[half : half + count]  # the reporting half

    def metrics(gold: Sequence[str]) -> Callable[[Any], dict[str, float]]:
        def of(result: Any) -> dict[str, float]:
            ranked = engram_paragraphs(result, of_source)
            return {"passage R@5": recall_at(ranked, gold, 5), "passage R@10": recall_at(ranked, gold, 10)}

        return of

    return [(space, q.text, metrics(q.gold)) for q in picked]


def supported(statement: str, concepts: Sequence[str], episode: EpisodeContext) -> bool:
    """Every capitalised word and every concept word of the statement is mentioned by its turn (text, speaker,
    addressee; a shared 5-letter prefix counts: 'hiking' / 'hiked')."""
    context = {w.lower() for w in WORD.findall(f"{episode.text} {episode.speaker} {episode.addressee}")}
    words = [w for i, w in enumerate(WORD.findall(statement)) if w[0].isupper() and i > 0]
    words += [w for c in concepts for w in WORD.findall(c)]

    def mentioned(word: str) -> bool:
        word = word.lower()
        return word in context or any(c[:5] == word[:5] for c in context if len(word) >= 5 and len(c) >= 5)

    return all(mentioned(w) for w in words)


def extraction(sample: str, count: int, loaded: LoadedModel, tokens: int) -> dict[str, Any]:
    import outlines

    turns, _ = load_locomo(LOCOMO_PATH)
    episodes = []
    for turn in turns[sample][:count]:
        speaker, _, text = turn.text.partition(": ")
        episodes.append(EpisodeContext(turn.dia_id, text, speaker, occurred_at=datetime(2023, 5, 8, tzinfo=UTC)))
    speakers = sorted({e.speaker for e in episodes})
    other = {s: next((o for o in speakers if o != s), "") for s in speakers}
    episodes = [EpisodeContext(e.episode_id, e.text, e.speaker, other[e.speaker], e.occurred_at) for e in episodes]
    generate, compile_s = timed(outlines_generate_fn, outlines.from_transformers(loaded.model, loaded.tokenizer))
    systems: dict[str, PropositionExtractor] = {
        "offline": OfflineExtractor(),
        "model": LLMExtractor(generate, tokens, attempts=1),
    }
    if tokens < 1500:  # the bench's own budget (the product never goes below the schema's worst case)
        systems["model"]._max_new_tokens = tokens  # type: ignore[attr-defined]
    results: dict[str, Any] = {"turns": len(episodes), "model_schema_compile_s": round(compile_s, 1)}
    samples: list[dict[str, Any]] = []
    for system, extractor in systems.items():
        statements = supported_count = rejected = 0
        seconds = []
        for episode in tqdm(episodes, desc=f"extract {system}", unit="turn"):
            try:
                drafts, spent = timed(extractor.extract, [episode])
            except ExtractionError:
                rejected += 1
                continue
            seconds.append(spent)
            statements += len(drafts)
            ok = [supported(d.text, d.concept_phrases, episode) for d in drafts]
            supported_count += sum(ok)
            if system == "model" and len(samples) < 8:
                samples += [
                    {"turn": episode.text, "statement": d.text, "supported": s} for d, s in zip(drafts, ok, strict=True)
                ]
        results[system] = {
            "statements_per_turn": round(statements / len(episodes), 2),
            "supported_share": round(supported_count / statements, 2) if statements else None,
            "rejected_turns": rejected,
            "s_per_turn_p50": round(statistics.median(seconds), 2) if seconds else None,
        }
    results["model_samples"] = samples[:8]
    return results


FOLLOWUP_PROMPT = """Found so far:
{found}
Question: {question}
The question needs one more fact. Next search query: \""""
CONTENT_WORD = re.compile(r"[a-z0-9][a-z0-9'-]{2,}")
STOP = frozenset(
    [
        "the",
        "and",
        "was",
        "who",
        "what",
        "which",
        "when",
        "where",
        "how",
        "did",
        "does",
        "is",
        "are",
        "of",
        "for",
        "with",
        "that",
        "this",
        "from",
    ]
)


def content_words(text: str) -> set[str]:
    return {w for w in CONTENT_WORD.findall(text.lower()) if w not in STOP}


def fused(first: Sequence[str], second: Sequence[str], k: int = 60) -> list[str]:
    """Reciprocal-rank fusion of two paragraph rankings (the first wins ties)."""
    score: dict[str, float] = {}
    for ranking in (first, second):
        for rank, paragraph in enumerate(ranking):
            score[paragraph] = score.get(paragraph, 0.0) + 1 / (k + rank + 1)
    return sorted(score, key=lambda p: -score[p])


def write_followup(loaded: LoadedModel, prompt: str, tokens: int) -> str:
    """The model's next search query: greedy, its first line."""
    import torch

    encoded = loaded.tokenizer(prompt, return_tensors="pt")
    with torch.no_grad():
        output = loaded.model.generate(**encoded, max_new_tokens=tokens, do_sample=False)
    text = str(loaded.tokenizer.decode(output[0, encoded["input_ids"].shape[1] :], skip_special_tokens=True))
    return text.strip().split("\n")[0].split('"')[0].strip()


def followup(loaded: LoadedModel, count: int, passages: int, tokens: int) -> dict[str, Any]:
    """Recall, the model's follow-up query, recall again, fuse: MuSiQue's reporting half (module docstring, 3)."""
    data = load_multihop("musique")
    space = multihop_space("musique")
    of_source = {stable_id("src", space, SourceKind.DOCUMENT.value, p.id): p.id for p in data.paragraphs}
    paragraphs = {p.id: p for p in data.paragraphs}
    half = len(data.questions) // 2
    picked = data.questions[half : half + count]
    settings = get_settings()
    embedder = get_embedder()
    engine = RecallEngine(get_driver(), settings.neo4j.database, embedder.encode, embedder.count_tokens)

    def ranked(query: str) -> tuple[list[str], float]:
        request = RecallRequest(space=space, query=query, token_budget=32_768, limit=200)
        result, spent = timed(engine.recall, request)
        return engram_paragraphs(result, of_source), spent

    metrics = [f"{ranking} R@{k}" for ranking in ("first", "fused", "title-fused") for k in (5, 10)]
    rows: dict[str, list[float]] = {m: [] for m in metrics}
    seconds: dict[str, list[float]] = {"first_recall": [], "followup_write": [], "second_recall": []}
    repeats = copies = 0
    samples = []
    for question in tqdm(picked, desc="musique follow-up", unit="q"):
        first, spent = ranked(question.text)
        seconds["first_recall"].append(spent)
        found = "\n".join(f"- {paragraphs[p].title}: {paragraphs[p].text[:160]}" for p in first[:passages])
        query, spent = timed(
            write_followup, loaded, FOLLOWUP_PROMPT.format(question=question.text, found=found), tokens
        )
        seconds["followup_write"].append(spent)
        own = content_words(query) - content_words(question.text)
        repeats += not own
        copies += bool(own) and own <= content_words(found)  # its own words all come from a passage shown
        second, spent = ranked(query) if query else (first, 0.0)
        seconds["second_recall"].append(spent)
        # The control without a model: the second search is the first recall's top paragraph's title.
        titled = ranked(paragraphs[first[0]].title)[0] if first else []
        rankings = {"first": first, "fused": fused(first, second), "title-fused": fused(first, titled)}
        figures = {f"{n} R@{k}": recall_at(r, question.gold, k) for n, r in rankings.items() for k in (5, 10)}
        for metric, value in figures.items():
            rows[metric].append(value)
        samples.append({"question": question.text, "followup": query, "own_words": sorted(own), **figures})
    return {
        "commit": git_commit(),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "sample": f"musique questions {half + 1}-{half + len(picked)} (second half), {passages} passages shown",
        "followup_tokens": tokens,
        **{m: round(100 * statistics.fmean(v), 1) for m, v in rows.items()},
        "followups_repeating_the_question": repeats,
        "followups_copying_a_shown_passage": copies,
        "questions": len(picked),
        "s_p50": {name: round(statistics.median(v), 2) for name, v in seconds.items()},
        "followups": samples,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="language-model paths against the offline ones (issue 46)")
    parser.add_argument("--model", default="gemma3-270m")
    parser.add_argument("--sample", default="conv-26", help="the LoCoMo development conversation")
    parser.add_argument("--questions", type=int, default=10, help="per dataset")
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--beams", type=int, default=get_settings().keys.beams)
    parser.add_argument("--extract-tokens", type=int, default=256)
    parser.add_argument("--parts", default="recall,extraction", help="comma-separated: recall, extraction, followup")
    parser.add_argument("--followup-questions", type=int, default=20, help="MuSiQue reporting-half questions")
    parser.add_argument("--followup-passages", type=int, default=3, help="first-recall paragraphs shown to the model")
    parser.add_argument("--followup-tokens", type=int, default=24)
    args = parser.parse_args()
    parts = set(args.parts.split(","))

    rss_before = peak_rss_gb()
    loaded = load(args.model, get_settings().state_dir)
    if parts == {"followup"}:  # the other parts' figures stay as the run that measured them wrote them
        measured = followup(loaded, args.followup_questions, args.followup_passages, args.followup_tokens)
        measured |= {"load_s": round(loaded.load_s, 1), "peak_rss_gb": peak_rss_gb()}
        measured["command"] = " ".join([Path(sys.executable).name, *sys.argv])
        path = RESULTS_DIR / "model_paths.json"
        kept = json.loads(path.read_text()) if path.exists() else {}
        path.write_text(json.dumps(kept | {"musique_followup": measured}, indent=2) + "\n")
        print(path, {k: v for k, v in measured.items() if k != "followups"})
        return
    import outlines

    model = outlines.from_transformers(loaded.model, loaded.tokenizer)
    offline, with_model, constrained = engines(model, args.beams)
    result: dict[str, Any] = {
        "commit": git_commit(),
        "model": args.model,
        "backend": "transformers (fp32, CPU)",
        "load_s": round(loaded.load_s, 1),
        "beams": args.beams,
        "sample": {
            "locomo": f"{args.sample}, {args.questions} non-adversarial questions spread over it",
            "hotpotqa": f"questions 26-{25 + args.questions} (second half)",
            "musique": f"questions 26-{25 + args.questions} (second half)",
            "extraction": f"{args.sample}: first {args.turns} turns, {args.extract_tokens} new tokens, one attempt",
        },
        "note": "2 shared cores, load 8-18 from other sessions: timings are noisy",
    }
    if "recall" in parts:
        recall: dict[str, Any] = {}
        cases = locomo_cases(args.sample, args.questions)
        recall["locomo"] = compare("locomo", cases, offline, with_model, constrained)
        for dataset in ("hotpotqa", "musique"):
            cases = multihop_cases(dataset, args.questions)
            recall[dataset] = compare(dataset, cases, offline, with_model, constrained)
        result["recall"] = recall
        for name, row in recall.items():
            print(name, {k: v for k, v in row.items() if k != "named"})
    if "extraction" in parts:
        result["extraction"] = extraction(args.sample, args.turns, loaded, args.extract_tokens)
        print({k: v for k, v in result["extraction"].items() if k != "model_samples"})
    if "followup" in parts:
        result["musique_followup"] = followup(
            loaded, args.followup_questions, args.followup_passages, args.followup_tokens
        )
    result["peak_rss_gb"] = {"before_model": rss_before, "end": peak_rss_gb()}
    print(write_result("model_paths", result))


if __name__ == "__main__":
    main()
