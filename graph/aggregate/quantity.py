"""Quantities stated in a memory's text: a number with its unit ("$1,300", "5 km", "two hours", "3 cups"), parsed
offline by rules, so an aggregate sums only what was said and never guesses a unit.

Units are named canonically (`UNITS`: each spelling to one name, with a factor where two units of one dimension are
exact multiples: minutes are summed as hours only when told in both). A number without a unit is not a quantity:
"3" alone could be a count, a rank or a date. Times of day, dates and years are not quantities either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Spelling -> (canonical unit, factor to it). Money signs are read apart (`_MONEY`).
UNITS: dict[str, tuple[str, float]] = {
    **dict.fromkeys(("dollar", "dollars", "usd", "bucks", "buck"), ("USD", 1.0)),
    **dict.fromkeys(("euro", "euros", "eur"), ("EUR", 1.0)),
    **dict.fromkeys(("pound sterling", "gbp"), ("GBP", 1.0)),
    **dict.fromkeys(("cent", "cents"), ("USD", 0.01)),
    **dict.fromkeys(("km", "kms", "kilometer", "kilometers", "kilometre", "kilometres"), ("km", 1.0)),
    **dict.fromkeys(("mile", "miles", "mi"), ("mile", 1.0)),
    **dict.fromkeys(("meter", "meters", "metre", "metres"), ("m", 1.0)),
    **dict.fromkeys(("hour", "hours", "hr", "hrs", "h"), ("hour", 1.0)),
    **dict.fromkeys(("minute", "minutes", "min", "mins"), ("minute", 1.0)),
    **dict.fromkeys(("second", "seconds", "sec", "secs"), ("second", 1.0)),
    **dict.fromkeys(("day", "days"), ("day", 1.0)),
    **dict.fromkeys(("week", "weeks"), ("week", 1.0)),
    **dict.fromkeys(("kg", "kgs", "kilogram", "kilograms", "kilo", "kilos"), ("kg", 1.0)),
    **dict.fromkeys(("lb", "lbs", "pound", "pounds"), ("lb", 1.0)),
    **dict.fromkeys(("g", "gram", "grams"), ("g", 1.0)),
    **dict.fromkeys(("liter", "liters", "litre", "litres", "l"), ("l", 1.0)),
    **dict.fromkeys(("ml", "milliliter", "milliliters"), ("ml", 1.0)),
    **dict.fromkeys(("cup", "cups"), ("cup", 1.0)),
    **dict.fromkeys(("glass", "glasses"), ("glass", 1.0)),
    **dict.fromkeys(("bottle", "bottles"), ("bottle", 1.0)),
    **dict.fromkeys(("page", "pages"), ("page", 1.0)),
    **dict.fromkeys(("book", "books"), ("book", 1.0)),
    **dict.fromkeys(("step", "steps"), ("step", 1.0)),
    **dict.fromkeys(("calorie", "calories", "kcal"), ("kcal", 1.0)),
    **dict.fromkeys(("percent", "%"), ("%", 1.0)),
}
# Exact conversions inside a dimension, used only to add quantities told in different units (minutes and hours).
COMMON_UNIT: dict[str, tuple[str, float]] = {
    "minute": ("hour", 1 / 60),
    "second": ("hour", 1 / 3600),
    "m": ("km", 1 / 1000),
    "g": ("kg", 1 / 1000),
    "ml": ("l", 1 / 1000),
}
NUMBER_WORDS: dict[str, float] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "a hundred": 100, "half an": 0.5, "half a": 0.5, "a couple of": 2,
    "a dozen": 12, "an": 1,
}  # fmt: skip
_SCALES = {"k": 1_000, "thousand": 1_000, "million": 1_000_000, "m": 1_000_000, "bn": 1e9, "billion": 1e9}
_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_WORD_NUMBER = "|".join(sorted((re.escape(w) for w in NUMBER_WORDS), key=len, reverse=True))
_UNIT = "|".join(sorted((re.escape(u) for u in UNITS), key=len, reverse=True))
_MONEY = re.compile(
    rf"(?P<sign>[$€£])\s?(?P<n>{_DIGITS})(?:\s?(?P<scale>k|thousand|million|m|bn|billion)\b)?", re.IGNORECASE
)
_MEASURE = re.compile(
    rf"(?<![\w$€£.,])(?P<n>{_DIGITS}|{_WORD_NUMBER})(?:\s?(?P<scale>thousand|million)\b)?(?:\s|-)?"
    rf"(?P<unit>{_UNIT})(?![\w%])",
    re.IGNORECASE,
)
# Not quantities: clock times ("at 5 pm", "7:30"), a number right after a month name or before one ("5 May").
_NOT_MEASURE = re.compile(r"^\s*(?:[ap]\.?m\.?\b|:)", re.IGNORECASE)
_SIGN_UNIT = {"$": "USD", "€": "EUR", "£": "GBP"}
# Short units are too often something else after a word number ("one g"): only after digits. "an" is a number
# only before a unit of time ("an hour"): "a day" or "an apple" states no amount.
_DIGITS_ONLY_UNITS = frozenset({"h", "l", "g", "mi", "%"})


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str  # canonical (`UNITS`)
    text: str  # as written

    def common(self) -> Quantity:
        """The quantity in its dimension's common unit (minutes as hours), for adding to others."""
        unit, factor = COMMON_UNIT.get(self.unit, (self.unit, 1.0))
        return Quantity(round(self.value * factor, 6), unit, self.text)


def _number(text: str) -> float | None:
    word = NUMBER_WORDS.get(text.lower())
    if word is not None:
        return word
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def quantities(text: str) -> list[Quantity]:
    """Every quantity stated in `text`, in order of appearance (money first where a sign and a unit overlap)."""
    found: list[tuple[int, Quantity]] = []
    taken: list[tuple[int, int]] = []
    for match in _MONEY.finditer(text):
        value = _number(match["n"])
        if value is None:
            continue
        value *= _SCALES.get((match["scale"] or "").lower(), 1)
        found.append((match.start(), Quantity(value, _SIGN_UNIT[match["sign"]], match.group(0).strip())))
        taken.append(match.span())
    for match in _MEASURE.finditer(text):
        if any(start < match.end() and match.start() < end for start, end in taken):
            continue
        number, unit = match["n"], match["unit"].lower()
        if unit in _DIGITS_ONLY_UNITS and not number[0].isdigit():
            continue
        if number.lower() == "an" and UNITS[unit][0] != "hour":
            continue
        if _NOT_MEASURE.match(text[match.end() :]) or _NOT_MEASURE.match(text[match.start("unit") :]):
            continue
        value = _number(number)
        if value is None:
            continue
        value *= _SCALES.get((match["scale"] or "").lower(), 1)
        name, factor = UNITS[unit]
        found.append((match.start(), Quantity(round(value * factor, 6), name, match.group(0).strip())))
    return [quantity for _, quantity in sorted(found, key=lambda pair: pair[0])]


def quantity_in(text: str, units: set[str] | None = None) -> Quantity | None:
    """The quantity a memory states, if exactly one (of `units`, where given) is stated; None where none or several
    different ones are (which one counts is then not for a rule to guess)."""
    stated = [q for q in quantities(text) if units is None or q.common().unit in units]
    distinct = {(q.value, q.unit) for q in stated}
    return stated[0] if len(distinct) == 1 else None


ORDINALS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
    "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15, "twentieth": 20,
}  # fmt: skip
_CLOCK = re.compile(r"\b(?P<h>[01]?\d|2[0-3])(?::(?P<m>[0-5]\d))?\s?(?P<ap>[ap]\.?m\.?)?(?![\w:])", re.IGNORECASE)
_CARDINAL = "|".join(sorted((re.escape(w) for w in NUMBER_WORDS if " " not in w), key=len, reverse=True))
_ORDINAL = "|".join(sorted(ORDINALS, key=len, reverse=True))
# A rate ("3 times a week", "2 projects per month") is no count of them.
_NOT_RATE = r"(?!\w*\s+(?:a|an|per|each|every)\s+(?:day|week|month|year)\b)"
_KIND = re.compile(
    rf"(?<![\w$€£.,:])(?P<n>\d+|{_CARDINAL})\s+(?P<between>(?:[\w'-]+\s+){{0,2}}?)(?P<kind>[a-z][a-z'-]*s)\b{_NOT_RATE}",
    re.IGNORECASE,
)


def clock_minutes(text: str) -> int | None:
    """The one time of day a text states ("6:30 AM", "7 pm", "18:45"), as minutes after midnight; None where it
    states none or several different ones. A bare number is not a time: it needs minutes or am / pm."""
    found = set()
    for match in _CLOCK.finditer(text):
        if match["m"] is None and match["ap"] is None:
            continue
        hour, minute = int(match["h"]), int(match["m"] or 0)
        if match["ap"]:
            if hour > 12:
                continue
            hour = hour % 12 + (12 if match["ap"].lower().startswith("p") else 0)
        found.add(hour * 60 + minute)
    return found.pop() if len(found) == 1 else None


def stated_counts(text: str, stem: str, ordinals: bool = True) -> list[int]:
    """The numbers a text states of the things a word stem names: "4 projects", "4 painting projects", "my 5th
    project", "two kits" (a cardinal at most two words before the noun, an ordinal right before it: "the eighth grade
    graduation" is no count of graduations); a running count ("the 5th") is the count so far. Not a rate ("3 times a
    week"); without `ordinals`, cardinals only (times: "for the first time" says something is new, not how often)."""
    noun = re.escape(stem) + r"\w*"
    ordinal = rf"|(?P<o>\d+(?:st|nd|rd|th)|{_ORDINAL})\s+{noun}" if ordinals else ""
    pattern = re.compile(
        rf"(?<![\w$€£.,:])(?:(?P<n>\d+|{_CARDINAL})\s+(?:[\w'-]+\s+){{0,2}}?{noun}{ordinal}){_NOT_RATE}",
        re.IGNORECASE,
    )
    return [
        value
        for match in pattern.finditer(text)
        if (value := _count(match["n"] or match.groupdict().get("o") or "")) is not None
    ]


def counted_kinds(text: str, narrowing: list[str]) -> list[tuple[str, int]]:
    """The counts a text states of kinds of things a word narrows: "12 rare figurines", "57 rare records" and "a
    collection of 5 books" where it says "rare books" -> [(figurines, 12), (records, 57), (books, 5)] for the forms of
    "rare". A kind is a plural noun at most two words after the number; it counts only where the narrowing word is
    among those words or right before the kind elsewhere in the text (what the question narrows, it narrows too)."""
    low = text.lower()
    found = []
    for match in _KIND.finditer(text):
        value = _count(match["n"])
        kind = match["kind"].lower()
        between = match["between"].lower().split()
        narrowed = any(word.startswith(form) for word in between for form in narrowing) or any(
            re.search(rf"\b{re.escape(form)}\w*\s+{re.escape(kind)}\b", low) for form in narrowing
        )
        if value is not None and narrowed:
            found.append((kind, value))
    return found


def _count(number: str) -> int | None:
    """A whole count from a cardinal or ordinal ("12", "five", "5th", "fifth"); None for "a" / "an" or a fraction."""
    number = number.lower()
    if number in ("", "an", "a"):
        return None
    digits = re.match(r"\d+", number)
    value = int(digits.group(0)) if digits else ORDINALS.get(number, NUMBER_WORDS.get(number))
    return int(value) if value is not None and value == int(value) else None
