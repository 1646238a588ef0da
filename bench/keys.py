"""Schema-constrained key generation at 1k to 1M keys: the key trie against Outlines' built-in choice constraint.

For each size, in a fresh subprocess (so resident memory is that size's alone): build time of the trie
(tokenisation included; the chunk cache against direct encoding back to back on up to 100k keys), resident
memory, insert / remove time per key, merge time, masking time per decoding step (the real logits processor
over a GPT-2-size vocabulary), and end-to-end latency of naming 1 and k keys with a small random-weight Llama;
then, up to `--baseline-max` keys, the time Outlines takes to compile the same
keys as `outlines.types.Choice` (a regex alternation, outlines_core index) and one generation with it.

Keys are realistic multi-word phrases ("category/words ...", words from the LoCoMo conversations plus generated
ones); the tokenizer is a byte-level BPE with a ~50k vocabulary trained locally on that text (no downloads),
cached under .engram/bench/keys. Writes bench/results/keys.json and bench/results/keys.png.

    ~/.cache/engram/venv/bin/python -m bench.keys [--sizes 1000 10000 100000 1000000] [--baseline-max 100000]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from itertools import accumulate
from pathlib import Path
from typing import Any

import psutil
from tqdm import tqdm

from bench.common import LOCOMO_PATH, RESULTS_DIR, write_result
from engram.settings import PROJECT_ROOT

CACHE = PROJECT_ROOT / ".engram" / "bench" / "keys"
VOCAB_SIZE = 50_257  # GPT-2's: the mask is a vocabulary-sized tensor per step
SYLLABLES = [c + v for c in "bcdfghjklmnprstvwz" for v in ("a", "e", "i", "o", "u", "ai", "ou", "ee")] + [
    c + v + e for c in "bdgklmnprst" for v in "aeiou" for e in "nrst"
]


def locomo_words() -> list[str]:
    """Every word of the LoCoMo conversations (real English, as memory keys are made of)."""
    text = LOCOMO_PATH.read_text(encoding="utf-8")
    return re.findall(r"[a-z]{2,}", text.lower())


def lexicon(rng: random.Random) -> list[str]:
    """The words the tokenizer is trained on: LoCoMo's, then ~60k generated ones (rare names, jargon)."""
    real = sorted(set(locomo_words()))
    made = {"".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))) for _ in range(60_000)}
    return real + sorted(made - set(real))


def key_words() -> list[str]:
    """Words keys are made of, most frequent first: LoCoMo words seen twice or more (no ids or URLs), then
    generated ones for the long tail a million keys need."""
    counts = Counter(locomo_words())
    real = [w for w, c in counts.most_common() if c >= 2]
    rng = random.Random(3)
    made = sorted({"".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))) for _ in range(30_000)} - set(real))
    return real + made


def make_keys(count: int, seed: int, words: list[str], exclude: set[str] | None = None) -> list[str]:
    """Distinct keys like "pottery/class with sister": a category, then one to three words (Zipf-like)."""
    rng = random.Random(seed)
    categories = words[100:400]  # frequent words, past the function words
    cumulative = list(accumulate(1 / (rank + 1) ** 0.7 for rank in range(len(words))))
    keys: dict[str, None] = {}
    skip = exclude or set()
    while len(keys) < count:
        phrase = " ".join(rng.choices(words, cum_weights=cumulative, k=rng.randint(1, 3)))
        key = f"{rng.choice(categories)}/{phrase}"
        if key not in skip:
            keys[key] = None
    return list(keys)


def build_tokenizer(words: list[str]) -> Any:
    """A byte-level BPE tokenizer of ~50k tokens trained on LoCoMo text plus generated phrases (cached)."""
    from transformers import PreTrainedTokenizerFast

    from tests.support.tiny_lm import train_byte_level_bpe

    path = CACHE / "tokenizer"
    if not (path / "tokenizer.json").exists():
        rng = random.Random(1)
        corpus = [" ".join(locomo_words()[i : i + 64]) for i in range(0, len(locomo_words()), 64)]
        corpus += [" ".join(rng.choices(words, k=32)) for _ in range(40_000)]
        corpus += [" ".join(make_keys(2_000, 100 + i, words)) for i in range(20)]
        train_byte_level_bpe(corpus, VOCAB_SIZE).save_pretrained(path)
    return PreTrainedTokenizerFast.from_pretrained(path)


def small_model(tokenizer: Any) -> Any:
    """A small random-weight Llama over the benchmark tokenizer (~30M parameters, mostly embeddings)."""
    import torch

    from tests.support.tiny_lm import random_llama

    torch.manual_seed(0)
    return random_llama(tokenizer, hidden_size=256, layers=4, max_positions=512)


def rss_mb() -> float:
    return float(psutil.Process().memory_info().rss) / 2**20


def peak_rss_mb() -> float:
    return float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024  # KiB on Linux


def mask_cost(trie: Any, samples: list[list[int]], vocab: int) -> tuple[float, float]:
    """(ms per decoding step of the whole logits processor, ms per step of the trie lookup alone)."""
    import torch

    from engram.concept_keys.processor import TrieLogitsProcessor

    processor = TrieLogitsProcessor(trie)
    logits = torch.zeros(1, vocab)
    prompt = [trie.eos_token_id] * 8
    processor_s = lookup_s = 0.0
    steps = 0
    for tokens in samples:
        processor.reset()
        for i in range(len(tokens) + 1):
            input_ids = torch.tensor([prompt + tokens[:i]])
            started = time.perf_counter()
            processor(input_ids, logits)
            processor_s += time.perf_counter() - started
            steps += 1
        state = trie.root()
        for token in tokens:
            started = time.perf_counter()
            trie.allowed(state)
            state = trie.step(state, token)
            lookup_s += time.perf_counter() - started
    return 1000 * processor_s / steps, 1000 * lookup_s / (steps - len(samples))


def measure(size: int, baseline: bool, k: int) -> dict[str, Any]:
    """Everything for one size (runs in its own process)."""
    import outlines
    import torch

    from engram.concept_keys.decoder import KeyDecoder
    from engram.concept_keys.tokenization import KeyTokenizer
    from engram.concept_keys.trie import KeyTrie

    torch.set_num_threads(2)
    tokenizer = build_tokenizer(lexicon(random.Random(0)))
    key_tokenizer = KeyTokenizer(tokenizer)
    words = key_words()
    keys = make_keys(size, 7, words)
    extra = make_keys(1_050, 8, words, exclude=set(keys))
    extra, warm_up = extra[:1_000], extra[1_000:]
    rss_before = rss_mb()

    started = time.perf_counter()
    trie = KeyTrie(key_tokenizer, keys)
    build_s = time.perf_counter() - started
    result: dict[str, Any] = {
        "keys": size,
        "mean_key_chars": round(sum(map(len, keys)) / size, 1),
        "mean_key_tokens": round(len(trie._static.key_tokens) / size, 2),
        "trie_nodes": trie._static.node_count,
        "build_s": round(build_s, 3),
        "rss_mb": round(rss_mb() - rss_before, 1),
        "peak_rss_mb": round(peak_rss_mb() - rss_before, 1),
        "trie_arrays_mb": round(trie.nbytes() / 2**20, 1),
        "process_rss_mb": round(rss_mb(), 1),
    }

    for key in warm_up:  # first calls pay for lazy initialisation in the tokenizer and numpy
        trie.insert(key)
    for key in warm_up:
        trie.remove(key)
    started = time.perf_counter()
    for key in extra:
        trie.insert(key)
    result["insert_ms_per_key"] = round(1000 * (time.perf_counter() - started) / len(extra), 4)
    started = time.perf_counter()
    trie.merge()
    result["merge_s"] = round(time.perf_counter() - started, 3)
    merge_every = max(4096, 0.05 * size)  # KeyTrie defaults: the delta is merged past 5% of the keys
    result["insert_amortized_ms_per_key"] = round(
        result["insert_ms_per_key"] + 1000 * result["merge_s"] / merge_every, 4
    )
    doomed = random.Random(9).sample(keys, 1_000)
    started = time.perf_counter()
    for key in doomed[:100]:
        trie.remove(key)
    result["remove_100_keys_ms"] = round(1000 * (time.perf_counter() - started), 2)
    for key in doomed[100:]:
        trie.remove(key)
    result["remove_ms_per_key"] = round(1000 * (time.perf_counter() - started) / len(doomed), 4)
    assert len(trie) == size, "inserts and removals must balance"

    # Old against new tokenisation, back to back on the same keys (the machine's load hits both alike).
    sample = keys[:100_000]
    fresh = KeyTokenizer(tokenizer)
    started = time.perf_counter()
    fresh.encode_flat(sample)
    result["tokenise_cached_s"] = round(time.perf_counter() - started, 3)
    fresh.cache = None
    started = time.perf_counter()
    fresh.encode_flat(sample)
    result["tokenise_direct_s"] = round(time.perf_counter() - started, 3)
    result["tokenise_sample_keys"] = len(sample)
    result["tokenise_speedup"] = round(result["tokenise_direct_s"] / result["tokenise_cached_s"], 2)
    for name, tokens_of in (("cached", key_tokenizer.key_tokens), ("direct", fresh.key_tokens)):
        started = time.perf_counter()
        for key in extra:
            tokens_of(key)
        result[f"key_tokens_{name}_ms_per_key"] = round(1000 * (time.perf_counter() - started) / len(extra), 4)

    samples = [key_tokenizer.encode_key(k) for k in random.Random(10).sample(trie.keys(), 300)]
    mask_ms, lookup_ms = mask_cost(trie, samples, len(tokenizer))
    result["mask_ms_per_step"] = round(mask_ms, 4)
    result["trie_lookup_ms_per_step"] = round(lookup_ms, 4)

    model = outlines.from_transformers(small_model(tokenizer), tokenizer)
    decoder = KeyDecoder(model)
    prompt = "Name the memory keys this question is about.\nQuestion: what did Caroline paint last year?\nKey:\n"
    decoder.name_keys(prompt, trie, k)  # warm-up
    started = time.perf_counter()
    one = decoder.name_key(prompt, trie)
    result["generate_1_key_s"] = round(time.perf_counter() - started, 4)
    started = time.perf_counter()
    several = decoder.name_keys(prompt, trie, k)
    result[f"generate_{k}_keys_beam_s"] = round(time.perf_counter() - started, 4)
    assert one is not None and one.key in trie and len({c.key for c in several}) == k
    steps = trie.max_tokens + 1
    plain = outlines.Generator(model)
    started = time.perf_counter()
    plain(prompt, max_new_tokens=steps, min_new_tokens=steps)
    result["forward_ms_per_step"] = round(1000 * (time.perf_counter() - started) / steps, 3)

    result["baseline_compile_s"] = None
    if baseline:
        from outlines.types import Choice

        started = time.perf_counter()
        generator = outlines.Generator(model, Choice(keys))
        result["baseline_compile_s"] = round(time.perf_counter() - started, 2)
        started = time.perf_counter()
        answer = generator(prompt, max_new_tokens=64)
        result["baseline_generate_1_key_first_s"] = round(time.perf_counter() - started, 4)
        started = time.perf_counter()
        answer = generator(prompt, max_new_tokens=64)
        result["baseline_generate_1_key_s"] = round(time.perf_counter() - started, 4)
        assert answer in set(keys), "the built-in constraint produced a non-key"
        # A schema change means a recompile; for the trie it is one insert.
        result["update_speedup"] = round(result["baseline_compile_s"] * 1000 / result["insert_ms_per_key"])
    return result


def chart(sizes: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = [s["keys"] for s in sizes]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    ax = axes[0]
    ax.plot(n, [s["insert_ms_per_key"] for s in sizes], "o-", label="trie: insert 1 key")
    measured = [s for s in sizes if s["baseline_compile_s"] is not None]
    ax.plot(
        [s["keys"] for s in measured],
        [s["baseline_compile_s"] * 1000 for s in measured],
        "s-",
        label="Outlines Choice: recompile",
    )
    ax.set_ylabel("ms per schema change (log)")
    ax.set_title("Adding a key")
    ax = axes[1]
    ax.plot(n, [s["mask_ms_per_step"] for s in sizes], "o-", label="mask per step (processor)")
    ax.plot(n, [s["insert_ms_per_key"] for s in sizes], "^-", label="insert per key")
    ax.plot(n, [s["remove_ms_per_key"] for s in sizes], "v-", label="remove per key")
    ax.plot(n, [s["forward_ms_per_step"] for s in sizes], "x--", label="forward pass per step (small model)")
    ax.set_ylabel("ms (log)")
    ax.set_title("Per-operation cost")
    ax = axes[2]
    ax.plot(n, [s["build_s"] for s in sizes], "o-", label="build s (tokenise + trie)")
    ax.plot(n, [s["rss_mb"] / 1000 for s in sizes], "s-", label="resident GB")
    ax.axhline(20, color="#c33", lw=0.8, ls=":", label="goals at 1M: 20 s, 1 GB")
    ax.axhline(1, color="#c33", lw=0.8, ls=":")
    ax.set_title("Build")
    for ax in axes:
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("keys")
        ax.legend(fontsize=7)
    fig.suptitle(
        "Schema-constrained keys: token trie vs Outlines' built-in choice constraint "
        f"({VOCAB_SIZE // 1000}k BPE vocabulary)"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000, 1_000_000])
    parser.add_argument("--baseline-max", type=int, default=100_000, help="largest size to compile with Outlines")
    parser.add_argument("--k", type=int, default=4, help="keys named by beam search")
    parser.add_argument("--one-size", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.one_size:
        args.out.write_text(json.dumps(measure(args.one_size, args.one_size <= args.baseline_max, args.k)))
        return
    build_tokenizer(lexicon(random.Random(0)))  # once, before the timed runs
    sizes = []
    for size in tqdm(args.sizes, desc="key-set sizes", unit="size"):
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            command = [sys.executable, "-m", "bench.keys", "--one-size", str(size), "--out", out.name]
            command += ["--baseline-max", str(args.baseline_max), "--k", str(args.k)]
            subprocess.run(command, check=True, cwd=PROJECT_ROOT)
            sizes.append(json.loads(Path(out.name).read_text()))
        tqdm.write(json.dumps(sizes[-1]))
    from transformers import PreTrainedTokenizerFast

    vocab = len(PreTrainedTokenizerFast.from_pretrained(CACHE / "tokenizer"))
    result = {
        "tokenizer": f"byte-level BPE trained locally, {vocab} tokens",
        "model": "random-weight Llama, hidden 256, 4 layers (~30M parameters)",
        "baseline": "outlines.Generator(model, outlines.types.Choice(keys)) (outlines_core regex index)",
        "baseline_sizes": [s["keys"] for s in sizes if s["baseline_compile_s"] is not None],
        "sizes": {str(s["keys"]): s for s in sizes},
    }
    path = write_result("keys", result)
    chart(sizes, RESULTS_DIR / "keys.png")
    print(path.read_text())


if __name__ == "__main__":
    main()
