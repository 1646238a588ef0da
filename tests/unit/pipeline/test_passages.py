"""Documents are split into bounded passages whatever their punctuation (workers/pipeline/standardize.py)."""

from __future__ import annotations

from engram.formats.passages import PASSAGE_MAX_CHARS, PASSAGE_WORDS, split_passages
from engram.formats.records import MAX_DOCUMENT_CHARS


def test_a_paragraph_with_no_sentence_end_is_split_on_word_boundaries() -> None:
    words = [f"word{i}" for i in range(10 * PASSAGE_WORDS + 7)]
    passages = split_passages(" ".join(words))
    assert len(passages) == 11
    assert all(len(p.split()) <= PASSAGE_WORDS for p in passages)
    assert " ".join(passages).split() == words  # nothing lost, nothing cut inside a word


def test_a_2mb_paragraph_becomes_many_bounded_passages() -> None:
    text = ("lorem ipsum dolor sit amet " * (MAX_DOCUMENT_CHARS // 27)).strip()
    passages = split_passages(text)
    assert len(passages) > 1000
    assert max(len(p) for p in passages) <= PASSAGE_MAX_CHARS
    assert max(len(p.split()) for p in passages) <= PASSAGE_WORDS


def test_a_word_longer_than_a_passage_is_cut_at_the_character_limit() -> None:
    blob = "x" * (3 * PASSAGE_MAX_CHARS + 5)
    passages = split_passages(f"before {blob} after")
    assert max(len(p) for p in passages) <= PASSAGE_MAX_CHARS
    assert "".join(passages).replace(" ", "") == f"before{blob}after"


def test_ordinary_text_is_packed_as_before() -> None:
    text = "One short sentence. Another one.\n\nA second paragraph."
    assert split_passages(text) == ["One short sentence. Another one. A second paragraph."]
