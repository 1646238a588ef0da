"""Turns free text into a safe Lucene query for Neo4j's full-text indexes.

User text never reaches Lucene's parser as syntax: every term is reduced to letters and digits, so
metacharacters (`+ - && || ! ( ) { } [ ] ^ " ~ * ? : \\ /`) and keywords (AND, OR, NOT) cannot change the query.
"""

from __future__ import annotations

import re

from engram.extraction.keyphrases import STOPWORDS, TERM

MAX_TERMS = 32
_LUCENE_KEYWORDS = {"and", "or", "not", "to"}
_NOT_IN_SPACE_NAME = re.compile(r"[^a-z0-9_.-]")


def lucene_query(text: str, drop: frozenset[str] = STOPWORDS) -> str:
    """An OR of the text's content words (lower-cased; the words in `drop` and Lucene keywords dropped); empty if
    none. By default the words too generic to be concept keys are dropped too ("think", "feel", "good", "week")."""
    terms: list[str] = []
    for term in TERM.findall(text.lower()):
        if term in drop or term in _LUCENE_KEYWORDS or term in terms:
            continue
        terms.append(term)
    return " OR ".join(terms[:MAX_TERMS])


def query_terms(lucene: str) -> list[str]:
    """The terms of a query `lucene_query` made."""
    return lucene.split(" OR ") if lucene else []


def in_field(lucene: str, field: str) -> str:
    """`lucene` (from `lucene_query`) over one field of an index that has several."""
    return f"{field}:({lucene})"


def in_space(lucene: str, space: str, field: str = "text") -> str:
    """`lucene` (from `lucene_query`) over `field`, restricted to `space` inside the index (the text
    indexes also index `space`, schema 0005). The space is a phrase: its parts in order, nothing between; a space
    whose name holds this one's parts as a run ("acme" in "acme-eu") matches it too, so callers still keep only
    their own space's rows."""
    phrase = _NOT_IN_SPACE_NAME.sub(" ", space.lower())  # space names are validated; a quote still never passes
    return f'space:"{phrase}" AND {in_field(lucene, field)}'


def one_edit_apart(a: str, b: str) -> bool:
    """Whether Lucene's fuzzy term `a~1` matches `b`: equal, or one letter inserted, deleted or replaced, or two
    neighbours swapped."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(diffs) == 1 or (
            len(diffs) == 2 and diffs[1] == diffs[0] + 1 and a[diffs[0]] == b[diffs[1]] and a[diffs[1]] == b[diffs[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((i for i, (x, y) in enumerate(zip(short, long, strict=False)) if x != y), len(short))
    return short[i:] == long[i + 1 :]
