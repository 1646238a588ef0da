"""Pure text helpers shared by the consolidation rules: content words, value tokens, dates, string similarity."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from engram.extraction.keyphrases import STOPWORDS, singular

_MONTH_NAMES = "january february march april may june july august september october november december"
MONTHS = frozenset(_MONTH_NAMES.split(" ")) | frozenset(
    ("jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec")
)
_NUMBER_NAMES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million "
    "first second third fourth fifth sixth seventh eighth ninth tenth"
)
NUMBER_WORDS = frozenset(_NUMBER_NAMES.split(" "))
NEGATIONS = frozenset({"not", "never", "no", "none", "nothing", "nobody", "neither", "nor", "cannot"})
# Framing words the extractor adds around a statement ("Caroline said: ..."): not part of the fact.
FRAMING = frozenset({"said", "says", "asked", "asks", "told", "mentioned", "shared"})
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_DATE = re.compile(
    r"\b\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]* \d{4}\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]* \d{1,2},? \d{4}\b"
    r"|\b\d{4}-\d{2}-\d{2}\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]* \d{4}\b"
    r"|\b(?:19|20)\d{2}\b"
)


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("’", "'"))


def dates(text: str) -> frozenset[str]:
    """Date expressions in the text (the offline extractor writes resolved dates as '7 May 2023')."""
    return frozenset(m.group(0) for m in _DATE.finditer(text.lower()))


def _without_dates(text: str) -> str:
    return _DATE.sub(" ", text.lower())


def values(text: str) -> frozenset[str]:
    """Quantities outside dates: digits and number words ('two kids', '3 dogs')."""
    return frozenset(w for w in words(_without_dates(text)) if w.isdigit() or w in NUMBER_WORDS)


def content_tokens(text: str) -> frozenset[str]:
    """Content words (singular, no stopwords, no framing, no dates or quantities, no negations)."""
    out = set()
    for word in words(_without_dates(text)):
        bare = word.split("'")[0]
        if (
            len(bare) < 2
            or bare in STOPWORDS
            or bare in FRAMING
            or bare in MONTHS
            or bare in NEGATIONS
            or bare.isdigit()
            or bare in NUMBER_WORDS
        ):
            continue
        out.add(stem(singular(bare)))
    return frozenset(out)


def stem(word: str) -> str:
    """A crude suffix stripper, enough to meet inflections: 'roasted' / 'roast', 'making' / 'make'."""
    for suffix in ("ing", "ed", "es", "e", "y"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if len(word) > 3 and word[-1] == word[-2] else word


# Words that point into the conversation around a statement ("that looks amazing", "sorry to hear about
# that", "this book"): such a statement means something else in every episode that says it. A relative "that"
# ("jobs that help people") and an "it" with its antecedent in the sentence do not count.
_DEICTIC = re.compile(
    r"\b(?:this|these|those)\b"
    r"|\bthat(?:['’]s| is| was| looks| sounds| seems| must| would| will| has| makes)\b"
    r"|\b(?:about|of|for|with|like|on|at|to|in|from|by) that\b(?! \w+ (?:who|which|that)\b)(?=\s*[.!?,;]|\s*$)",
    re.IGNORECASE,
)
_POSSESSOR = re.compile(r"\b([A-Z][\w-]*)['’]s\b")
_SHARED_IMAGE = re.compile(r"^\s*\S.*? shared an image:", re.IGNORECASE)


def context_bound(text: str) -> bool:
    """The statement leans on its conversation: a demonstrative ("this", "those", "that looks", "about that")
    whose referent is elsewhere."""
    return _DEICTIC.search(text) is not None


_REPORTED = re.compile(r"^\s*\S[^:]*? said: ")


def reported(text: str) -> bool:
    """A report of what someone said ("Assistant said: ..."): the extractor's form for a sentence that names no one
    (engram/extraction/offline.py), a claim about no subject."""
    return _REPORTED.match(text) is not None


def shared_image(text: str) -> bool:
    """A photo shared at one moment ("Nate shared an image: ..."): an event of its own, however alike the
    captions of two photos are."""
    return _SHARED_IMAGE.match(text) is not None


def possessors(text: str) -> frozenset[str]:
    """Whose things the statement is about ("Nate's support ... to Joanna" -> {Nate})."""
    return frozenset(m.group(1) for m in _POSSESSOR.finditer(text))


def negated(text: str) -> bool:
    return any(w in NEGATIONS or w.endswith("n't") for w in words(text))


def is_question(text: str) -> bool:
    return text.rstrip().endswith("?") or " asked: " in text


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def word_variant(a: str, b: str) -> bool:
    """Two spellings of one word: 'colour' / 'color', 'woman' / 'women' (not inflections or derivations such as
    'feel' / 'feeling', 'different' / 'difference': those name different concepts often enough to mislead
    recall)."""
    if a == b:
        return True
    if a[:2] != b[:2] or a.isdigit() or b.isdigit() or abs(len(a) - len(b)) > 1 or min(len(a), len(b)) < 4:
        return False
    if a[-1] != b[-1]:
        return False  # another ending is another form of the word: hear / heard, photographer / photography
    return string_similarity(a, b) >= 0.8


def spelling_variant(a: str, b: str) -> bool:
    """Keys that differ only in spacing or in the spelling of their words ('road trip' / 'roadtrip',
    'women sitting' / 'woman sitting'); not a narrower key ('mental health job' / 'mental health')."""
    if a.replace(" ", "").replace("-", "") == b.replace(" ", "").replace("-", ""):
        return True
    words_a, words_b = a.split(), b.split()
    return len(words_a) == len(words_b) and all(word_variant(x, y) for x, y in zip(words_a, words_b, strict=True))


def string_similarity(a: str, b: str) -> float:
    """Character-level similarity in [0, 1] (difflib ratio)."""
    return SequenceMatcher(None, a, b).ratio()


def initials(key: str) -> str:
    return "".join(word[0] for word in key.split() if word)


def is_acronym_of(short: str, long: str) -> bool:
    """'nyc' / 'new york city', 'ai' / 'artificial intelligence' (keys are lower case and normalised)."""
    compact = short.replace(" ", "").replace(".", "")
    parts = long.split()
    return 2 <= len(compact) <= 6 and len(parts) >= 2 and compact.isalpha() and compact == initials(long)
