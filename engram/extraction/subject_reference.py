"""Make a document's sentences about its subject name it: in a passage of a titled document (an encyclopaedia
article, a runbook), "He was born in 1950", "Its editor is ...", "The band formed in 1998" refer to what the title
names, and a proposition that keeps the pronoun loses the entity a question's next hop needs.

Only the subject position at the start of a sentence is resolved (optionally after a leading phrase that ends in a
comma: "In 1990, he moved ..."), and only the pronoun family the passage first uses there (he/his, she/her, it/its,
they/their): in an article about a film, "It stars ..." is the film, a later "He plays ..." is not. A definite
description is the subject when its head noun is the title's head noun, its disambiguator ("Heat (1995 film)") or
the head of the category the passage's first sentence puts the subject in ("... is an English rock band" -> "The
band", "The rock band"). Expletive "it" ("It is believed that ...") is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engram.extraction.wordlists import load_wordlist

# The pronoun families a subject may be referred to by: subject form and possessive form.
_FAMILIES = {
    "he": "he", "his": "he", "she": "she", "her": "she", "it": "it", "its": "it", "they": "they", "their": "they",
}  # fmt: skip
_POSSESSIVES = frozenset({"his", "her", "its", "their"})
# A leading adverbial phrase: "In 1990, ", "After the war, ", "Originally, ", "Founded in 1920, " (not any capitalised
# phrase: "The 113th edition of the series, " is a subject of its own).
_LEAD_WORDS = (
    "In|On|At|After|Before|During|Since|From|By|As|Following|Although|Though|While|When|Despite|Throughout|Until|Upon"
    "|With|Within|Between|Later|Today|Currently|Then|Also|However|Thereafter|Subsequently|Eventually|Together"
)
_LEAD = rf"(?:(?:(?:{_LEAD_WORDS})\b|[A-Z][a-z]+(?:ly|ed|ing)\b)[^,;:.()\"“”]{{0,80}}?,\s+)?"
_REFERENCE = re.compile(
    rf"^(?P<lead>{_LEAD})(?P<word>He|She|It|They|His|Her|Its|Their|he|she|it|they|his|her|its|their)\b(?=\s)"
)
_DESCRIPTION = re.compile(rf"^(?P<lead>{_LEAD})(?:The|the) (?P<rest>.*)$")
_EXPLETIVE = re.compile(
    r"^(?:is|was|has been|had been|will be|would be|seems|seemed|appears|appeared|remains|remained|became)\s+"
    r"(?:(?:\w+\s+){0,2}?(?:that|to)\b|not until\b|(?:widely |generally |commonly )?(?:believed|said|thought|known"
    r"|estimated|reported|claimed|rumou?red|likely|unlikely|possible|impossible|unclear|unknown)\b)"
)
_DISAMBIGUATOR = re.compile(r"\s*\(([^()]*)\)\s*$")
_DEFINITION = re.compile(r"\b(?P<copula>is|was|are|were) (?:a|an|the|one of the) (?P<span>[^,;:.()\"“”]+)")
# Words that end the category phrase of a definition ("an American film directed by ..." -> "American film").
_PHRASE_END = load_wordlist("category_phrase_end")
_MAX_DESCRIPTION_WORDS = 3
_PHRASE_GOES_ON = frozenset({"of", "and", "or", "for", "in", "on", "at", "from", "to", "'s"})


def subject_name(title: str) -> str:
    """The entity a title names: its disambiguator dropped ("Lilu (mythology)" -> "Lilu")."""
    return _DISAMBIGUATOR.sub("", title).strip()


def _title_heads(title: str) -> set[str]:
    """Head nouns a definite description of the title's subject may use: "Journal of Mathematical Physics" ->
    journal; "Heat (1995 film)" -> heat, film."""
    heads = set()
    name = subject_name(title)
    words = re.findall(r"[A-Za-z][A-Za-z-]*", name.split(" of ")[0])
    if words:
        heads.add(words[-1].lower())
    disambiguator = _DISAMBIGUATOR.search(title)
    if disambiguator:
        category = re.findall(r"[a-z][a-z-]*", disambiguator.group(1))
        if category:
            heads.add(category[-1])
    return heads


@dataclass(frozen=True)
class _Definition:
    words: set[str]
    head: str
    plural: bool  # "Arctic Monkeys are a band": "they" may refer to it


def _definition(first_sentence: str) -> _Definition:
    """The words and head noun of the category a defining sentence puts its subject in ("... is an English rock band
    formed in Sheffield" -> {english, rock, band}, band); empty when the sentence defines nothing."""
    match = _DEFINITION.search(first_sentence)
    if not match:
        return _Definition(set(), "", plural=False)
    words: list[str] = []
    for word in match.group("span").split()[:8]:
        lower = word.lower()
        # A participle ends the phrase ("a game created by"); a hyphenated one ("peer-reviewed") is a modifier.
        if lower in _PHRASE_END or (lower.endswith("ed") and "-" not in lower) or not re.fullmatch(r"[\w-]+", lower):
            break
        words.append(lower)
    return _Definition(set(words), words[-1] if words else "", plural=match.group("copula") in ("are", "were"))


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


@dataclass(frozen=True)
class SubjectReferences:
    """How one passage of a titled document refers to its subject."""

    name: str  # the subject as the title names it
    family: str  # the pronoun family the passage uses for it first ("" when it uses none)
    description_words: frozenset[str]  # words a definite description of the subject may use
    heads: frozenset[str]  # its possible head nouns

    @classmethod
    def of_passage(cls, title: str, sentences: Sequence[str]) -> SubjectReferences:
        """From the document's title and the passage's sentences."""
        name = subject_name(title)
        definition = _definition(sentences[0]) if sentences else _Definition(set(), "", plural=False)
        family = ""
        for sentence in sentences:
            match = _REFERENCE.match(sentence)
            if match and not _expletive(match, sentence):
                family = _FAMILIES[match.group("word").lower()]
                break
        if family == "they" and not (definition.plural or name.endswith("s")):
            family = ""  # "They" beside a singular subject ("Botany. ... They were ...") is someone else
        heads = _title_heads(title) | ({definition.head} if definition.head else set())
        return cls(name, family, frozenset(definition.words | heads), frozenset(heads))

    def resolve(self, sentence: str) -> str:
        """The sentence with a subject reference at its start replaced by the subject's name."""
        if not self.name or self.name.lower() in sentence.lower():
            return sentence  # it names the subject already ("The Journal of X is ...")
        match = _REFERENCE.match(sentence)
        if match and self.family and _FAMILIES[match.group("word").lower()] == self.family:
            if _expletive(match, sentence):
                return sentence
            word = match.group("word").lower()
            name = _possessive(self.name) if word in _POSSESSIVES else self.name
            return f"{match.group('lead')}{name}{sentence[match.end() :]}"
        return self._resolve_description(sentence)

    def _resolve_description(self, sentence: str) -> str:
        match = _DESCRIPTION.match(sentence)
        if not match:
            return sentence
        words = match.group("rest").split(" ")
        for length in range(min(_MAX_DESCRIPTION_WORDS, len(words) - 1), 0, -1):
            described = [w.lower() for w in words[:length]]
            following = words[length]
            if (
                described[-1] in self.heads
                and all(w in self.description_words for w in described)
                and following[:1].islower()  # "The band released ...", not "The band Oasis ..."
                and following not in _PHRASE_GOES_ON  # not "The journal of ..."
            ):
                return f"{match.group('lead')}{self.name} {' '.join(words[length:])}"
        return sentence


def _expletive(match: re.Match[str], sentence: str) -> bool:
    """ "It is believed that ...", "It was not until ...": no referent at all."""
    return match.group("word").lower() == "it" and bool(_EXPLETIVE.match(sentence[match.end() :].lstrip()))
