"""Concept keys from keyphrases: candidate phrases are maximal runs of content words (RAKE-style),
plus capitalised names; keys are normalised (case, punctuation, plural) so variants meet on one key."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engram.extraction.sentences import split_sentences
from engram.extraction.temporal import time_expressions
from engram.extraction.wordlists import load_wordlist

# Words that carry no content (a search query drops them too), and with them the generic words that make poor keys.
FUNCTION_WORDS = load_wordlist("function_words")
STOPWORDS = FUNCTION_WORDS | load_wordlist("generic_words")
# Neither is a concept nor part of one, yet a search query keeps them ("two cats" asks a count): not in STOPWORDS.
NUMBER_WORDS = load_wordlist("number_words")
# Nouns whose -s is not a plural's ("news", "series"): `singular` leaves them as they are.
SINGULAR_S_NOUNS = load_wordlist("singular_s_nouns")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]|\d+")
# A run of letters or digits in any script: the unit of full-text search (a query's terms, a procedure's words).
TERM = re.compile(r"[^\W_]+", re.UNICODE)
_SPLIT = re.compile(r"[.,;:!?()\[\]\"“”/&]+|\s+-\s+")
MAX_PHRASE_WORDS = 3


def singular(word: str) -> str:
    if len(word) <= 3 or word.endswith(("ss", "us", "is", "ics")) or word.lower() in SINGULAR_S_NOUNS:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def normalize_key(phrase: str) -> str:
    """The schema form of a key: lower case, ASCII apostrophes dropped, hyphens as spaces, last word singular."""
    words = re.findall(r"[a-z0-9]+", phrase.lower().replace("’", "'").replace("'s ", " ").replace("'", ""))
    if not words:
        return ""
    words[-1] = singular(words[-1])
    return " ".join(words)


# A title's trailing qualifier in parentheses ("Alphaville (band)", "Alice in Wonderland (1951 film)") and leading
# article ("The Lake District"): neither is part of the name the text uses for the subject.
_TITLE_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")
_TITLE_ARTICLE = re.compile(r"^(the|a|an)\s+", re.IGNORECASE)


def title_key(title: str) -> str:
    """The concept key a document's title names: the title without a trailing qualifier in parentheses or a leading
    article, as a key ("" where nothing is left). Schema 0010 computes the same in Cypher."""
    return normalize_key(_TITLE_ARTICLE.sub("", _TITLE_QUALIFIER.sub("", title)))


@dataclass(frozen=True)
class Keyphrase:
    key: str
    display: str
    score: float


def _is_content(bare: str) -> bool:
    if bare in STOPWORDS or bare in NUMBER_WORDS or len(bare) < 2 or bare.isdigit():
        return False
    # Without a part-of-speech tagger, past-tense verbs and participles ("painted", "excited") break phrases.
    return not (len(bare) > 4 and bare.endswith("ed"))


def extract_keyphrases(text: str, names: frozenset[str] = frozenset(), limit: int = 5) -> list[Keyphrase]:
    """Ranked concept-key candidates of `text`: multi-word phrases and names first."""
    candidates: dict[str, Keyphrase] = {}
    # A time expression ends a phrase: "Lisbon two weeks ago" and "the party last Saturday" name no "lisbon two".
    for start, end in reversed(time_expressions(text)):
        text = f"{text[:start]},{text[end:]}"

    def add(words: list[str]) -> None:
        for start in range(0, len(words), MAX_PHRASE_WORDS):
            part = words[start : start + MAX_PHRASE_WORDS]
            display = " ".join(part)
            key = normalize_key(display)
            if len(key) < 3:
                continue
            is_name = all(w[0].isupper() for w in part) or display in names
            score = len(part) + (1.5 if is_name else 0.0)
            if key not in candidates or candidates[key].score < score:
                candidates[key] = Keyphrase(key, display, score)

    for chunk in _SPLIT.split(text):
        run: list[str] = []
        for token in _WORD.findall(chunk):
            bare = token.lower().replace("’", "'")
            possessive = bare.endswith("'s")
            stem = token[:-2] if possessive else token
            if stem in names:  # a person is a concept of its own, never glued to a neighbouring word
                add(run)
                add([stem])
                run = []
            elif _is_content(bare) and not possessive:
                run.append(token)
            else:
                if possessive and _is_content(stem.lower()):
                    run.append(stem)
                add(run)
                run = []
        add(run)
    ranked = sorted(candidates.values(), key=lambda k: (-k.score, k.key))
    return ranked[:limit]


MAX_TITLE_WORDS = 6
# Within a sentence a title may hold a comma ("Paris, Texas"), not a clause's other punctuation.
_CLAUSE_END = re.compile(r"[;:!?()\[\]\"“”]+|\s+-\s+")


def named_titles(text: str) -> list[str]:
    """The keys of the titles `text` may name (schema 0010's `title_key` form): every run of up to MAX_TITLE_WORDS
    words within a clause (an initial's period ends none: "M. Ward") that neither begins nor ends with a function
    word and is not one generic word alone, longest first ("Battle of Mine Creek" before "Mine Creek" before
    "Creek")."""
    keys: dict[str, int] = {}
    for chunk in (clause for sentence in split_sentences(text) for clause in _CLAUSE_END.split(sentence)):
        words = _WORD.findall(chunk)
        lowered = [w.lower().replace("’", "'") for w in words]
        for size in range(min(MAX_TITLE_WORDS, len(words)), 0, -1):
            for start in range(len(words) - size + 1):
                first, last = lowered[start], lowered[start + size - 1]
                if first in FUNCTION_WORDS or last in FUNCTION_WORDS or (size == 1 and first in STOPWORDS):
                    continue
                key = normalize_key(" ".join(words[start : start + size]))
                if len(key) >= 3:
                    keys.setdefault(key, size)
    return sorted(keys, key=lambda k: -keys[k])
