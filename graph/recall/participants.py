"""Who a query is about, when it names people who speak in the memory.

In a conversation memory, "What activities does Melanie partake in?" is answered by what Melanie said, in words
that rarely include her name or the question's; the name in the query is a filter, not content. Embedding the
whole question pulls every utterance about or to Melanie close; embedding its content ("What activities does
partake in?") and looking among what she said finds the camping trip, the pottery class and the swim.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engram.extraction.keyphrases import STOPWORDS

# A capitalised word, possibly possessive: names are written capitalised in questions.
_CAPITALISED = re.compile(r"\b[^\W\d_][\w-]*(?:['\u2019]s)?\b")
_SPACES = re.compile(r"\s+")
_WORDS = re.compile(r"[^\W\d_]+")
_FIRST_PERSON = re.compile(r"\b(?:I|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)\b|\bI['\u2019](?:m|ve|d|ll)\b")
_SECOND_PERSON = re.compile(r"\b(?:[Yy]ou|[Yy]our|[Yy]ours|[Yy]ourself)\b")


def _name_tokens(speaker: str) -> list[str]:
    return [token for token in speaker.split() if len(token) >= 2 and token[0].isupper()]


def named_participants(query: str, speakers: Iterable[str]) -> list[str]:
    """The speakers (as stored) that the query names by any part of their name, e.g. "Mel" does not name
    "Melanie" but "Melanie's" does."""
    words = set()
    for word in _CAPITALISED.findall(query):
        if word[0].isupper():
            words.add(re.sub(r"['\u2019]s$", "", word))
    return sorted({s for s in speakers if s and any(token in words for token in _name_tokens(s))})


def without_names(query: str, participants: Iterable[str]) -> str:
    """The query with the participants' names (and their possessive) taken out; empty when nothing else is left."""
    text = query
    for speaker in participants:
        for token in _name_tokens(speaker):
            text = re.sub(rf"\b{re.escape(token)}(?:['\u2019]s)?\b", " ", text)
    text = _SPACES.sub(" ", text).strip()
    # A query left with stop words only ("Who is Melanie?") asks nothing to search for.
    has_content = any(word.lower() not in STOPWORDS for word in _WORDS.findall(text))
    return text if has_content else ""


def persons_meant(query: str, asker: str | None, addressee: str | None) -> list[str]:
    """The speakers the query means by its pronouns: the asker where it speaks in the first person, the addressee
    where it speaks to someone ("you")."""
    meant = []
    if asker and _FIRST_PERSON.search(query):
        meant.append(asker)
    if addressee and _SECOND_PERSON.search(query):
        meant.append(addressee)
    return meant
