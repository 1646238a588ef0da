"""A tiny random-weight causal LM and a byte-level BPE tokenizer built locally (no downloads).

Random weights under a constraint must still only produce valid output: that is what the tests check.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

CORPUS = [
    "Caroline went to a support group yesterday and it was powerful.",
    "Melanie painted a sunrise over the lake with her kids last year.",
    '{"propositions": [{"text": "Caroline likes hiking", "subject": "Caroline", "concepts": ["hiking"]}]}',
    "person/alice/hobbies person/bob/work place/paris/museum topic/art/painting",
    'Ünïcödé keys, émojis 🙂 and other bytes; numbers 0123456789 {}[]":,',
]


@lru_cache(maxsize=2)
def build_tiny_lm(directory: str, vocab_size: int = 800) -> tuple[object, object]:
    """(transformers model, tokenizer), saved under `directory` so loaders can read them too."""
    import torch

    torch.manual_seed(0)
    tokenizer = train_byte_level_bpe(CORPUS * 20, vocab_size)
    model = random_llama(tokenizer)
    path = Path(directory)
    path.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return model, tokenizer


def train_byte_level_bpe(corpus: list[str], vocab_size: int) -> Any:
    """A GPT-2-style byte-level BPE tokenizer trained on `corpus` (<s>, </s>, <unk> special tokens)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=["<s>", "</s>", "<unk>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    core.train_from_iterator(corpus, trainer=trainer)
    return PreTrainedTokenizerFast(tokenizer_object=core, bos_token="<s>", eos_token="</s>", unk_token="<unk>")


def random_llama(tokenizer: Any, hidden_size: int = 64, layers: int = 2, max_positions: int = 4096) -> Any:
    """A random-weight Llama over `tokenizer`'s vocabulary (4 heads, MLP twice the hidden size)."""
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=2 * hidden_size,
        num_hidden_layers=layers,
        num_attention_heads=4,
        num_key_value_heads=4,
        max_position_embeddings=max_positions,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    return LlamaForCausalLM(config).eval()
