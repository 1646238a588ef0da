"""Turns free text into a safe Lucene query for Neo4j's full-text indexes.

User text never reaches Lucene's parser as syntax: every term is reduced to letters and digits, so
metacharacters (`+ - && || ! ( ) { } [ ] ^ " ~ * ? : \\ /`) and keywords (AND, OR, NOT) cannot change the query.
"""

from __future__ import annotations

import re

from engram.extraction.keyphrases import STOPWORDS

MAX_TERMS = 32
_TERM = re.compile(r"[^\W_]+", re.UNICODE)
_LUCENE_KEYWORDS = {"and", "or", "not", "to"}


def lucene_query(text: str) -> str:
    """An OR of the text's content words (lower-cased; Lucene keywords dropped); empty if none."""
    terms: list[str] = []
    for term in _TERM.findall(text.lower()):
        if term in STOPWORDS or term in _LUCENE_KEYWORDS or term in terms:
            continue
        terms.append(term)
    return " OR ".join(terms[:MAX_TERMS])
