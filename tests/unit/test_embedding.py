"""The embedder batches by token length; the vectors must not depend on how texts were batched."""

from __future__ import annotations

import numpy as np
import pytest
from pydantic import ValidationError

from engram.embedding import Embedder, get_embedder
from engram.settings import EmbeddingSettings

TEXTS = [
    "dance studio",
    "Jon opened a dance studio in the city and it offers classes for kids, teens and adults every weekday evening.",
    "Caroline",
    "Melanie ran a charity race for mental health last Saturday (20 May 2023).",
    "",
    "a photo of a painting of a sunrise over a lake",
    "Jon",
]


def test_vectors_keep_the_input_order_and_equal_one_text_at_a_time() -> None:
    embedder = get_embedder()
    together = embedder.encode(TEXTS)
    alone = np.vstack([embedder.encode([t]) for t in TEXTS])
    np.testing.assert_allclose(together, alone, atol=2e-6)
    assert together.shape == (len(TEXTS), 384)
    np.testing.assert_allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)


def test_a_forward_pass_stays_within_the_token_budget_and_progress_reaches_the_end() -> None:
    embedder = Embedder(EmbeddingSettings(batch_size=3, batch_tokens=40))
    texts = TEXTS * 3
    lengths = embedder.tokenizer(texts, return_length=True)["length"]
    batches = list(embedder._batches(texts))
    assert sorted(i for b, _ in batches for i in b) == list(range(len(texts)))
    for batch, padded in batches:
        assert len(batch) <= 3
        assert padded == len(batch) * max(lengths[i] for i in batch)
        assert len(batch) == 1 or padded <= 40
    seen: list[int] = []
    embedder.encode(texts, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == len(texts) and len(seen) == len(batches)
    assert embedder.encode([]).shape == (0, 384)


@pytest.mark.parametrize("name", ["ENGRAM_EMBEDDING_BATCH_SIZE", "ENGRAM_EMBEDDING_BATCH_TOKENS"])
def test_a_batch_limit_below_one_is_refused_with_the_setting_named(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(name, "0")
    with pytest.raises(ValidationError, match=name.removeprefix("ENGRAM_EMBEDDING_").lower()):
        EmbeddingSettings()


def test_token_counts_are_the_tokenizers_word_pieces_without_truncation() -> None:
    embedder = get_embedder()
    long_text = " ".join(TEXTS * 40)  # well past the model's 256-token window
    for text in [*TEXTS, long_text, "naïve café — 東京 🙂"]:
        assert embedder.count_tokens(text) == len(embedder.tokenizer.tokenize(text))
    assert embedder.count_tokens(long_text) > 1000
