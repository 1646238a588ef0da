"""Whether a question asks for a computation over everything remembered, read from its form: counting ("how many",
"how often", "the number of"), adding up ("how much ... in total", "the total"), comparing ("more ... than", "compared
to") or listing ("list all", "which ... all"), and by what period ("per week", "each month", "this week than last").

The reading is by the question's grammatical form only, never by a topic: "How many times did I go running?" and "How
many kits have I built?" are both counts, of what the rest of the question names (`target`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from engram.extraction.keyphrases import STOPWORDS
from graph.aggregate.quantity import NUMBER_WORDS, UNITS

AggregateKind = Literal["count", "sum", "compare", "list"]
Period = Literal["day", "week", "month", "year"]

_COUNT = re.compile(r"\b(?:how many|how often|number of|count of|count (?:the|my|all)|how frequently)\b", re.I)
_SUM = re.compile(
    r"\b(?:how much\b(?=.*\b(?:per|each|every) (?:day|week|month|year)\b)"
    r"|how much\b(?=.*\b(?:total|in all|altogether|combined|overall|so far|spen[dt]|cost|paid|pay)\b)"
    r"|in total|total (?:amount|number|cost|time|distance|of)|the total|sum of|add(?:ed)? up|altogether|combined)\b",
    re.I,
)
_COMPARE = re.compile(
    r"\b(?:(?:more|less|fewer|longer|shorter|earlier|later|higher|lower|cheaper|bigger|smaller)\b.*\bthan\b"
    r"|compared (?:to|with)|difference between|how much (?:more|less|earlier|later|longer|higher|lower))",
    re.I,
)
_LIST = re.compile(r"\b(?:list (?:all|every|the)|what are all|which .* all|name all|every (?:time|one))\b", re.I)
# Where a comparison's second side begins.
_SIDES = re.compile(r"\b(?:than|compared (?:to|with)|versus|vs\.?)\s", re.I)
_PERIODS: dict[str, Period] = {"day": "day", "week": "week", "month": "month", "year": "year"}
_PER_PERIOD = re.compile(
    r"\b(?:per|each|every|a|by)\s+(?P<unit>day|week|month|year)\b"
    r"|\b(?:this|last) (?P<cmp>day|week|month|year)\b.*\b(?:than|compared|vs\.?|versus)\b"
    r"|\b(?P<ly>daily|weekly|monthly|yearly)\b",
    re.I,
)
_ADVERB_PERIOD: dict[str, Period] = {"daily": "day", "weekly": "week", "monthly": "month", "yearly": "year"}
# The question's frame, taken out to leave what it asks about.
_FRAME = re.compile(
    r"\b(?:how many(?: times)?|how often|how much(?: more| less)?|the number of|number of|in total|the total"
    r"|total(?: amount| number)?|altogether|combined|do|does|did|have|has|had|i|i've|i'm|my|me|you|was|were|is|are"
    r"|so far|in all|overall|of|than|compared to|compared with)\b",
    re.I,
)
# Words of the time a question names (read as days by the When step's rule, not matched as words).
_TIME_WORDS = frozenset(
    [
        "past",
        "last",
        "this",
        "next",
        "ago",
        "since",
        "month",
        "months",
        "year",
        "years",
        "week",
        "weeks",
        "day",
        "days",
        "today",
        "yesterday",
        "recently",
        "lately",
        "per",
        "each",
        "every",
        "daily",
        "weekly",
        "monthly",
        "yearly",
    ]
)
_WORD = re.compile(r"[^\W\d_][\w'-]*")
# Where a count's noun phrase starts and what ends it (the clause's auxiliary, pronoun or preposition).
_COUNTED = re.compile(r"\b(?:how many|number of|count of)\b", re.I)
_CLAUSE = frozenset(
    [
        "have", "has", "had", "did", "do", "does", "am", "is", "are", "was", "were", "will", "would", "can", "could",
        "should", "i", "i've", "i'm", "we", "you", "he", "she", "they", "it", "my", "our", "in", "on", "at", "from",
        "since", "for", "to", "during", "with", "by", "that", "which", "who", "this", "last", "past", "ago", "before",
        "after",
    ]
)  # fmt: skip
# Adjectives that say how to count, not what ("different kinds", "other projects").
_QUALIFIERS = frozenset(
    ["different", "distinct", "separate", "unique", "other", "various", "individual", "total", "new"]
)
# Nouns that classify what follows them ("types of fruit" counts fruits).
_CLASSIFIERS = frozenset(["types", "type", "kinds", "kind", "sorts", "sort", "varieties", "variety", "pieces", "piece"])
# Where one of two things joined by "and" begins or ends, besides the clause's words ("on the handbag and ...").
_CONJUNCT_ENDS = frozenset(["of", "about", "into", "between", "than", "or", "and", "what", "how", "when", "where"])
_TIMES = re.compile(r"\b(?:how many|number of) times\b", re.I)
# "How many hours/miles/dollars ...": an amount in that unit, added up.
_HOW_MANY_UNITS = re.compile(r"\bhow many (?P<unit>[a-z]+)\b", re.I)
# A time between two moments ("how many days passed between", "how many weeks ago", "how many days did it take") is
# read off two dates, not added up over memories.
_TIME_BETWEEN = re.compile(
    r"\bhow (?:many|much) (?:time|days?|weeks?|months?|years?|hours?|minutes?)\b"
    r"(?=.*\b(?:between|ago|before|after|since|passed|take|took|when|until|till|old|older|younger)\b)",
    re.I,
)


@dataclass(frozen=True)
class AggregateIntent:
    kind: AggregateKind
    period: Period | None  # the period to group by, when the question asks per period
    target: str  # what is counted or summed: the question without its frame
    terms: tuple[str, ...]  # the target's content words
    unit: str | None = None  # the unit the question asks in ("how many hours": hour), canonical (quantity.UNITS)
    head: str | None = None  # the noun counted ("how many Italian restaurants": restaurants), lower case
    restrictors: tuple[str, ...] = ()  # the words narrowing it ("italian"): a counted memory must say them
    sides: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # a comparison's two sides' own words ("taxi", "train")
    parts: tuple[tuple[str, ...], ...] = ()  # the things joined by "and" ("the handbag and the skincare products")
    times: bool = False  # a count of times ("how many times have I ..."), not of things


def aggregate_intent(question: str) -> AggregateIntent | None:
    """The computation the question asks for, or None where it asks none (an ordinary question)."""
    kind: AggregateKind | None = None
    unit = _asked_unit(question)
    if _TIME_BETWEEN.search(question) and not _COMPARE.search(question):
        return None
    if _COMPARE.search(question):
        kind = "compare"
    elif unit is not None:
        kind = "sum"
    elif _COUNT.search(question):
        kind = "count"
    elif _SUM.search(question):
        kind = "sum"
    elif _LIST.search(question):
        kind = "list"
    if kind is None:
        return None
    target = " ".join(_FRAME.sub(" ", question).replace("?", " ").split())
    # A capitalised word past the first is a name: statements name their speaker in every line ("Maya said: ..."),
    # so a name matches everything that person said, not what is counted.
    words = [w for i, w in enumerate(_WORD.findall(target)) if i == 0 or not w[0].isupper()]
    # "different", "types": how to count, not what is counted; a memory saying them is no more an instance of it.
    terms = tuple(w.lower() for w in words if _content(w.lower()) and w.lower() not in _QUALIFIERS | _CLASSIFIERS)
    head, restrictors = counted_phrase(question)
    sides = compared_sides(question) if kind == "compare" else ((), ())
    times = kind == "count" and _TIMES.search(question) is not None
    return AggregateIntent(
        kind, _period(question), target or question, terms, unit, head, restrictors, sides, conjuncts(question), times
    )


def conjuncts(question: str) -> tuple[tuple[str, ...], ...]:
    """The content words of each of two things a question joins by "and": "the total amount I spent on the designer
    handbag and high-end skincare products" -> ((designer, handbag), (high-end, skincare, products)). Each runs from
    "and" to the nearest word of the clause (an auxiliary, a pronoun, a preposition) on its side. Names are kept (a
    Facebook campaign is not an Instagram one). None where the question joins nothing, or a side has no content word."""
    words = _WORD.findall(question)
    lows = [w.lower() for w in words]
    if "and" not in lows:
        return ()
    at = lows.index("and")
    left: list[str] = []
    for low in reversed(lows[:at]):
        if low in _CLAUSE or low in _CONJUNCT_ENDS:
            break
        left.insert(0, low)
    right: list[str] = []
    for low in lows[at + 1 :]:
        if low in _CLAUSE or low in _CONJUNCT_ENDS:
            break
        right.append(low)
    sides = tuple(tuple(w for w in side if _content(w) and w not in _QUALIFIERS) for side in (left, right))
    return sides if all(sides) else ()


def compared_sides(question: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words only each side of a comparison says: "how much more money did I raise than my initial goal" ->
    ((money, raise), (initial, goal)); "how much earlier do I wake up on Fridays compared to other weekdays" ->
    ((earlier, wake, fridays), (weekdays,)). Words both sides say tell neither apart."""
    parts = _SIDES.split(question, maxsplit=1)
    if len(parts) != 2:
        return (), ()
    left, right = ([w.lower() for w in _WORD.findall(_FRAME.sub(" ", part))] for part in parts)
    left = [w for w in left if _content(w)]
    right = [w for w in right if _content(w)]
    return tuple(w for w in left if w not in right), tuple(w for w in right if w not in left)


def counted_phrase(question: str) -> tuple[str | None, tuple[str, ...]]:
    """The noun phrase a count asks about, as its head and the words narrowing it: "how many Italian restaurants have
    I tried" -> (restaurants, (italian,)); "how many items of clothing do I" -> (items, (clothing,)); "how many types of
    citrus fruits" -> (fruits, (citrus,)). The phrase runs from "how many" / "number of" to the first word of the
    clause (an auxiliary, a pronoun, a preposition but "of"). No phrase where the count is of times."""
    match = _COUNTED.search(question)
    if match is None:
        return None, ()
    words: list[str] = []
    for word in _WORD.findall(question[match.end() :]):
        low = word.lower()
        if low in _CLAUSE or (words and low in STOPWORDS and low != "of"):
            break
        if low in _QUALIFIERS or (low in STOPWORDS and low != "of") or low in NUMBER_WORDS:
            continue
        words.append(low.removesuffix("'s"))
    while words and words[0] == "of":  # "how many of Emma's recipes"
        words = words[1:]
    # "items of clothing": the head is before "of"; "types of citrus fruits": a classifier, the head is after it.
    while words and words[0] in _CLASSIFIERS and "of" in words:
        words = words[words.index("of") + 1 :]
    if "of" in words:
        at = words.index("of")
        head, rest = words[at - 1] if at else None, words[: max(at - 1, 0)] + words[at + 1 :]
    else:
        head, rest = (words[-1], words[:-1]) if words else (None, [])
    if head is None or head in _TIME_WORDS or head in UNITS or head == "times":
        return None, ()
    return head, tuple(w for w in rest if w != "of" and _content(w))


def _content(word: str) -> bool:
    """A word naming what is counted: not a stop word, a unit ("km"), a number word or a word of time ("past")."""
    return (
        len(word) > 1
        and word not in STOPWORDS
        and word not in UNITS
        and word not in NUMBER_WORDS
        and (word not in _TIME_WORDS)
    )


def _asked_unit(question: str) -> str | None:
    match = _HOW_MANY_UNITS.search(question)
    if match is None:
        return None
    named = UNITS.get(match["unit"].lower())
    return named[0] if named else None


def _period(question: str) -> Period | None:
    match = _PER_PERIOD.search(question)
    if match is None:
        return None
    if match["ly"]:
        return _ADVERB_PERIOD[match["ly"].lower()]
    return _PERIODS[(match["unit"] or match["cmp"]).lower()]
