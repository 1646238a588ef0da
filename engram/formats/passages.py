"""Long texts cut into passages: a document's text, or an over-long remember."""

from __future__ import annotations

import re

PASSAGE_WORDS = 150
# A passage's bound in characters too: a text without spaces (a URL list, base64) has no words to split on.
PASSAGE_MAX_CHARS = 2_000


def _bounded(piece: str, max_words: int) -> list[str]:
    """A piece cut on word boundaries into runs of at most max_words words and PASSAGE_MAX_CHARS characters (a
    word longer than that is cut inside): a paragraph with no sentence end would otherwise be one passage, one
    episode and one proposition however long it is."""
    runs: list[str] = []
    words: list[str] = []
    chars = 0
    for word in piece.split():
        for start in range(0, len(word), PASSAGE_MAX_CHARS):
            part = word[start : start + PASSAGE_MAX_CHARS]
            if words and (len(words) == max_words or chars + 1 + len(part) > PASSAGE_MAX_CHARS):
                runs.append(" ".join(words))
                words, chars = [], -1
            words.append(part)
            chars += 1 + len(part)
    if words:
        runs.append(" ".join(words))
    return runs


def split_passages(text: str, max_words: int = PASSAGE_WORDS) -> list[str]:
    """Paragraphs packed into passages of at most ~max_words words (long paragraphs split on sentences, sentences
    still too long on words), none longer than PASSAGE_MAX_CHARS."""
    pieces: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        paragraph = " ".join(paragraph.split())
        if not paragraph:
            continue
        if len(paragraph.split()) <= max_words and len(paragraph) <= PASSAGE_MAX_CHARS:
            pieces.append(paragraph)
        else:
            for sentence in re.split(r"(?<=[.!?])\s+", paragraph):
                pieces.extend(_bounded(sentence, max_words))
    passages: list[str] = []
    for piece in pieces:
        if (
            passages
            and len(passages[-1].split()) + len(piece.split()) <= max_words
            and len(passages[-1]) + 1 + len(piece) <= PASSAGE_MAX_CHARS
        ):
            passages[-1] = f"{passages[-1]} {piece}"
        else:
            passages.append(piece)
    return passages
