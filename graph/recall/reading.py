"""The question read once: a typed reading of what a recall asks, from one dependency parse (spaCy, the parse
`QuestionReader` caches) and the time windows Duckling finds (engram/time_windows.py).

- **subject**: whose attribute it asks about: the asker for I/my/me, else the person it names as its subject or owner
  ("Where does Maribel live?", "What is Tobias's job title?");
- **asked**: the attribute it asks, in its words ("blood type", "live"), for the answer's reason;
- **form**: what kind of answer it wants: the state now, the state then (a time or `asOf` in the past), an event in a
  window, a count, a how-to, or something else (a question about what was said, a statement);
- **windows**: the time it names, resolved against `now`;
- **names**: the names it uses;
- **unresolved**: what it could not read (a first person without an asker, a time without `now`): the trace says so.

Steps read the reading, not the words (graph/recall/steps/facts.py answers state questions from facts with it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from engram.extraction.temporal import Span
from engram.time_windows import question_spans
from graph.recall.models import MemoryType
from graph.recall.query import memory_types

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself"})
_WH = frozenset({"WDT", "WP", "WP$", "WRB"})
_COUNTING = frozenset({"many", "much"})


class Form(StrEnum):
    STATE_NOW = "state now"
    STATE_THEN = "state then"
    EVENT = "event in a window"
    COUNT = "count"
    HOW_TO = "how-to"
    OTHER = "other"


@dataclass(frozen=True)
class QuestionReading:
    subject: str | None
    asked: str
    form: Form
    content: str = ""  # what it asks, without its subject and its function words ("subscribe to for films")
    frames: list[str] = field(default_factory=list)  # the frames a fact answering it may have (engram/facts/frames.py)
    nouns: list[str] = field(default_factory=list)  # the things it names besides its subject ("blood", "type")
    asked_kinds: list[str] = field(default_factory=list)  # the nouns its wh-word asks by ("Which city ...": city)
    plural: bool = False  # it asks for things in the plural ("What hobbies does Ana have?"): a set, not one value
    windows: list[Span] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)

    def trace(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "asked": self.asked,
            "form": self.form.value,
            "windows": [{"from": s.first.isoformat(), "to": s.end.isoformat()} for s in self.windows],
            "names": self.names,
            "unresolved": self.unresolved,
        }


def read_question(
    doc: Doc, query: str, asker: str | None, now: datetime | None, as_of: datetime | None
) -> QuestionReading:
    """The reading of `query` (parsed as `doc`), asked by `asker` at `now`, about the world `as_of`."""
    unresolved: list[str] = []
    names = _names(doc)
    subject = _subject(doc, asker, unresolved)
    windows = question_spans(query, now) if now is not None else []
    if now is None and any(t.ent_type_ in ("DATE", "TIME") for t in doc):
        unresolved.append("a time, without the moment it is relative to (now)")
    form = _form(doc, query, windows, as_of)
    content = _content(doc, subject)
    # The things it names: nouns, or words in a noun's role whatever their tag (the small model tags "tattoo" in "Do I
    # have a tattoo?" as an adverb, and "Gina's tattoo symbolize" makes it an adjective).
    named = set(subject.split()) if subject else set()
    nouns = [
        t.lower_
        for t in doc
        if (t.pos_ in ("NOUN", "ADJ") or t.dep_ in ("dobj", "pobj", "attr", "nsubj", "compound"))
        and t.pos_ not in ("PRON", "DET", "AUX", "PROPN", "ADP")
        and t.tag_ not in _WH
        and t.text not in named
        and t.ent_type_ not in ("DATE", "TIME")
    ]
    kinds = [t.lemma_.lower() for t in doc if t.pos_ == "NOUN" and _wh_determined(t)]
    plural = any(t.tag_ == "NNS" and t.lower_ in nouns for t in doc)
    return QuestionReading(
        subject, _asked(doc), form, content, _frames(doc), nouns, kinds, plural, windows, names, unresolved
    )


def _names(doc: Doc) -> list[str]:
    spans = [e.text for e in doc.ents if e.label_ in ("PERSON", "ORG", "GPE", "LOC", "FAC", "PRODUCT", "NORP")]
    runs: list[str] = []
    for token in doc:
        if token.pos_ == "PROPN" and not (token.i and doc[token.i - 1].pos_ == "PROPN"):
            run = [token]
            while run[-1].i + 1 < len(doc) and doc[run[-1].i + 1].pos_ == "PROPN":
                run.append(doc[run[-1].i + 1])
            runs.append(" ".join(t.text for t in run))
    return list(dict.fromkeys(spans + runs))


def _subject(doc: Doc, asker: str | None, unresolved: list[str]) -> str | None:
    """The person whose attribute is asked: a first person is the asker; else a named owner ("Maribel's job") or a
    named subject ("does Maribel live")."""
    for token in doc:
        if token.lower_ in _FIRST_PERSON and token.dep_ in ("nsubj", "nsubjpass", "poss", "dobj", "pobj"):
            if asker:
                return asker
            unresolved.append("a first person, without an asker")
            return None
    for deps in (("poss",), ("nsubj", "nsubjpass"), ("dobj", "pobj", "attr")):
        for token in doc:
            if token.dep_ in deps and token.pos_ == "PROPN":
                return _propn_run(token)
    # The small model misreads some roles ("Which city is Tom based in now?": Tom as an adverbial): a person it
    # names, else its first name of anything, is still whom it asks about.
    person = next((t for t in doc if t.ent_type_ == "PERSON" and t.pos_ == "PROPN"), None)
    named = person or next((t for t in doc if t.pos_ == "PROPN" and t.ent_type_ not in ("DATE", "TIME")), None)
    return _propn_run(named) if named is not None else None


def _propn_run(token: Token) -> str:
    words = [c for c in token.children if c.dep_ == "compound" and c.pos_ == "PROPN"] + [token]
    return " ".join(t.text for t in sorted(words, key=lambda t: t.i))


def _asked(doc: Doc) -> str:
    """The attribute asked, in the question's words: a possessed noun ("Maribel's blood type"), a wh-word's noun
    ("which gym"), else the main verb ("live")."""
    for token in doc:
        if token.pos_ == "NOUN" and any(c.dep_ == "poss" for c in token.children):
            return _compound(token)
    for token in doc:
        if token.tag_ in _WH and token.dep_ == "det" and token.head.pos_ == "NOUN":
            return _compound(token.head)
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None:
        return ""
    if root.lemma_ == "be":
        attribute = next((c for c in root.children if c.dep_ in ("attr", "nsubj") and c.pos_ == "NOUN"), None)
        if attribute is not None:
            return _compound(attribute)
    particle = " ".join(c.lower_ for c in root.children if c.dep_ == "prt")
    return f"{root.lemma_.lower()} {particle}".strip()


def _content(doc: Doc, subject: str | None) -> str:
    """The question's words that say what it asks: not its subject (a name, I/my/me), its wh-word, its auxiliaries,
    determiners or punctuation."""
    names = set(subject.split()) if subject else set()
    kept = [
        t.text
        for t in doc
        if not (t.is_punct or t.tag_ in _WH or t.pos_ in ("AUX", "DET", "PART") or t.dep_ in ("aux", "case"))
        and t.ent_type_ not in ("DATE", "TIME")  # "these days", "now": when, not what
        and t.lower_ not in _FIRST_PERSON
        and t.text not in names
    ]
    return " ".join(kept)


# The kinds of value a wh-word asks for, and the prepositions a "where" implies when the question strands none.
_WH_KINDS = {"who": ("thing",), "whom": ("thing",), "where": ("thing",), "what": ("thing",),
             "which": ("thing",)}  # fmt: skip
_WHERE_PREPOSITIONS = ("in", "at")


def _frames(doc: Doc) -> list[str]:
    """The frames of the facts that would answer the question, built as ingestion builds a fact's: the attribute noun
    it asks for ("Who is my boss?" -> "boss"), and its verb with the preposition and the kinds of value its wh-word
    asks for ("Where do I study?" -> "study in :thing", "study at :thing"; "Who do I rent from?" -> "rent from
    :thing")."""
    frames = []
    noun = next(
        (t for t in doc if t.pos_ == "NOUN" and (any(c.dep_ == "poss" for c in t.children) or _wh_determined(t))),
        None,
    )
    if noun is not None:
        frames.append(_compound_lemma(noun))
    verb = next((t for t in doc if t.pos_ == "VERB" and t.dep_ in ("ROOT", "ccomp", "relcl")), None)
    if verb is None:
        root = next((t for t in doc if t.dep_ == "ROOT"), None)
        verb = root if root is not None and root.lemma_ == "be" else None
    wh = next((t.lower_ for t in doc if t.tag_ in _WH), "")
    if verb is not None and wh in _WH_KINDS:
        particle = " ".join(c.lower_ for c in verb.children if c.dep_ == "prt")
        # "Who do I rent from?", "Which gym does she go to?": the preposition's object is the wh-phrase, or none.
        stranded = [
            c.lower_
            for c in verb.children
            if c.dep_ == "prep" and all(g.tag_ in _WH or _wh_determined(g) for g in c.children if g.dep_ == "pobj")
        ]
        if verb.lemma_ == "be" and not stranded:
            return list(dict.fromkeys(frames))  # "Who is my boss?": the attribute noun says it all
        preps = stranded or (list(_WHERE_PREPOSITIONS) if wh == "where" else [""])
        kinds = _WH_KINDS[wh]
        for prep in preps:
            for kind in kinds:
                frames.append(" ".join(w for w in (verb.lemma_.lower(), particle, prep, f":{kind}") if w))
    return list(dict.fromkeys(frames))


def _wh_determined(token: Token) -> bool:
    return any(c.tag_ in _WH and c.dep_ == "det" for c in token.children)


def _compound_lemma(token: Token) -> str:
    words = [c for c in token.children if c.dep_ == "compound" and c.i < token.i] + [token]
    return " ".join(t.lemma_.lower() for t in sorted(words, key=lambda t: t.i))


def _compound(token: Token) -> str:
    words = [c for c in token.children if c.dep_ in ("compound", "amod") and c.i < token.i] + [token]
    return " ".join(t.lower_ for t in sorted(words, key=lambda t: t.i))


def _form(doc: Doc, query: str, windows: list[Span], as_of: datetime | None) -> Form:
    kinds = memory_types(query)
    if kinds[0] is MemoryType.PROCEDURAL:
        return Form.HOW_TO
    if any(t.lower_ == "how" and t.i + 1 < len(doc) and doc[t.i + 1].lower_ in _COUNTING for t in doc):
        return Form.COUNT
    if kinds[0] is MemoryType.EPISODIC or (not any(t.tag_ in _WH for t in doc) and not doc.text.rstrip().endswith("?")):
        return Form.OTHER
    past = any(t.tag_ == "VBD" for t in doc if t.dep_ in ("ROOT", "aux", "auxpass"))
    if windows:
        return Form.EVENT if past else Form.STATE_THEN
    if past:
        return Form.STATE_THEN if as_of is not None else Form.EVENT
    return Form.STATE_NOW
