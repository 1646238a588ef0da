"""A statement's atomic facts, read from its dependency parse (spaCy): one clause, one fact.

A sentence is split at its clause heads (the root, a coordinated verb, a clause after ";" or ":" with a subject of its
own), so "I live in Porto and work at a bakery" gives two facts and "Big news: I moved to Graz" drops the filler that no
clause holds. A clause without a subject takes its coordinated head's ("... and work at a bakery"), and a sentence
whose root is a past-tense verb with no subject at all ("Sold the old bike and bought a scooter") is its teller's.

Each clause says:
- its **subject**, as written ("I", "Maribel", "my sister"), and whose it is when a possessive owns the attribute
  ("My manager is Ottoline Vance": the teller's manager);
- its **predicate**: the verb's lemma with its particle and the preposition of its value ("live in", "give up"), or
  "be" with the attribute noun it fills ("My pet is Pico" -> "be pet");
- its **value**, typed by entity label or "THING", and the values it names in a **source role** (`ends`): "moved
  from X to Y", "traded X for Y", "replaced X with Y", "sold X", "left X", "broke up with X", "X passed away", "no
  longer have X" (docs/supersession.md lists the roles and the seed verbs);
- **polarity**, and whether it is a **state** (present tense, or the new value of a change) or an **event**;
- whether it **adds** to a plural attribute ("we also got a cat": it replaces nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engram.facts.frames import frame_of
from engram.facts.verbs import load_verbs

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

# Verbs (lemma, with a particle where it has one) whose object, or prepositional object after a particle, is an old
# value the statement ends: "sold X", "gave up X", "broke up with X". A seed list, documented in docs/supersession.md.
_ENDING_VERBS = load_verbs("ending")
# Verbs whose subject is the old value when it is not the teller: "X passed away", "X retired", "X left".
_SUBJECT_ENDING_VERBS = load_verbs("subject_ending")
# Entity labels that type a value; anything else is a THING.
_VALUE_TYPES = {
    "PERSON": "PERSON", "ORG": "ORG", "GPE": "GPE", "LOC": "GPE", "FAC": "GPE", "NORP": "NORP", "DATE": "DATE",
    "TIME": "DATE", "QUANTITY": "QUANTITY", "CARDINAL": "QUANTITY", "MONEY": "QUANTITY", "PERCENT": "QUANTITY",
    "PRODUCT": "THING", "WORK_OF_ART": "THING", "EVENT": "THING", "LANGUAGE": "LANGUAGE",
}  # fmt: skip
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "expl"})
_OBJECT_DEPS = ("dobj", "attr", "oprd", "acomp", "dative")
# Prepositions whose object is where a change goes: the new value ("moved to Graz", "traded X for Y").
_TARGET_PREPS = frozenset({"to", "into", "for", "with"})
_SOURCE_PREPS = frozenset({"from", "off"})  # "moved from X", "I am off the early shift"
_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself"})
_GROUP = frozenset({"we", "us", "our"})
_THIRD = frozenset({"he", "she", "they", "him", "her", "his", "their", "them"})
_RENEWING = frozenset({"now", "instead", "nowadays", "anymore", "days"})  # "these days"
# "also", "too", "another": an addition to what the subject has, not a replacement.
_ADDITIVE = frozenset({"also", "too", "another", "additionally", "as well"})
# Words that link a clause to the one before and say nothing of its own: "..., so Rudolf is my boss now".
_LINKING = frozenset({"so", "and", "but", "then", "also"})
_CLAUSE_LINKS = frozenset({"conj", "parataxis", "ccomp", "acl", "advcl"})


@dataclass
class Clause:
    """One atomic fact of a sentence, as its words say it."""

    text: str  # the clause's own words, its subject written out ("I work at a bakery near the station.")
    subject: str  # as written: "I", "Maribel", "my sister" ("" when the clause has none: its teller's)
    owner: str = ""  # a possessor that owns the attribute ("my" in "my manager is X", "Maribel" in "Maribel's car")
    # Whether the subject (or its owner) is a person named or the teller: "my neighbour's dog", "the traffic" are
    # someone's or something's else, whose attributes memory does not keep as facts.
    personal: bool = True
    renews: bool = False  # told as new ("now", "instead", "these days"): it replaces the slot's earlier value
    predicate: str = ""
    value: str = ""
    value_type: str = ""
    slot_noun: str = ""  # the attribute a copula or a possessed subject names ("manager", "job title")
    value_head: str = ""  # the value's head noun, lemmatised ("beagle called Juniper" -> "beagle")
    event: bool = False
    polarity: bool = True
    adds: bool = False
    ends: list[str] = field(default_factory=list)

    @property
    def first_person(self) -> bool:
        return (self.owner or self.subject).lower() in _FIRST_PERSON or not (self.owner or self.subject)

    @property
    def frame(self) -> str:
        return frame_of(self.predicate, self.value_type, self.slot_noun)

    @property
    def is_fact(self) -> bool:
        """Whether the clause says a value of an attribute, or ends one."""
        return bool(self.predicate and (self.value or self.ends))


def clauses(doc: Doc | Span) -> list[Clause]:
    """The atomic facts of one parsed sentence, in the order they are told; [] when it holds no clause."""
    tokens = list(doc)
    if not tokens:
        return []
    root = next((t for t in tokens if t.dep_ == "ROOT"), tokens[0])
    heads = [h for h in tokens if _is_clause_head(h, root)]  # spaCy makes a new Token per access: compare by .i
    if not heads:
        return []
    out = []
    # "Sold the old bike and bought a scooter": a sentence that opens with a past-tense verb is its teller's.
    tellers = root.i == 0 and root.tag_ in ("VBD", "VBN") and _subject(root) is None
    for head in heads:
        subject = _subject(head)
        inherited = subject is None and head.dep_ == "conj" and any(h.i == head.head.i for h in heads)
        if inherited:
            subject = _subject(head.head)
            if subject is None and tellers:
                inherited = False
        words = _clause_tokens(head, heads)
        if not words:
            continue
        subject_text = _phrase(subject) if subject is not None else ""
        text = "".join(t.text_with_ws for t in words).strip().rstrip(",;:")
        if subject is not None and inherited:
            text = f"{subject_text} {text}"
        elif subject is None:
            if not tellers:  # "Sold the old bike": the teller's; else no fact
                continue
            text = f"I {text[:1].lower()}{text[1:]}"
        end = tokens[-1].text if tokens[-1].text in ("!", "?") else "."
        clause = Clause(text=_sentence(text, end), subject=subject_text)
        _read(clause, head, subject)
        out.append(clause)
    _carry_ends(out)
    return out


def _carry_ends(told: list[Clause]) -> None:
    """ "Sold the Volvo and bought a Skoda", "I broke up with Anselm; I am seeing Tomasz now": a clause that ends a
    value and names no new one hands what it ended to the next clause of the sentence that says a value, which is
    then the new state of the same attribute."""
    pending: list[str] = []
    for clause in told:
        if clause.ends and not clause.value:
            pending = clause.ends
        elif pending and clause.value and not clause.ends and clause.polarity and not clause.adds:
            clause.ends = list(pending)
            clause.event = False
            pending = []


def _is_clause_head(token: Token, root: Token) -> bool:
    if token.pos_ not in ("VERB", "AUX"):
        return False
    if token.i == root.i:
        return True
    if token.dep_ not in _CLAUSE_LINKS:
        return False
    if token.dep_ == "conj":
        return token.head.pos_ in ("VERB", "AUX") and _is_clause_head(token.head, root)
    # A clause of its own needs its own subject ("...; on Monday I start at Brindle Foods", "news: I moved ...");
    # "because I liked it" and "what I said" stay inside their sentence's clause.
    own_subject = any(c.dep_ in _SUBJECT_DEPS for c in token.children)
    if token.dep_ == "advcl" or any(c.dep_ == "mark" for c in token.children):
        return False
    return own_subject and token.head.i == root.i


def _subject(head: Token) -> Token | None:
    return next((c for c in head.children if c.dep_ in _SUBJECT_DEPS), None)


def _clause_tokens(head: Token, heads: list[Token]) -> list[Token]:
    """The clause's words: the head's subtree without the other clauses, coordinating words and punctuation at its
    edges."""
    excluded: set[int] = set()
    for other in heads:
        if other.i != head.i and any(a.i == head.i for a in other.ancestors):
            excluded.update(t.i for t in other.subtree)
    words = [t for t in head.subtree if t.i not in excluded]
    # "... , and I started": the coordinator and commas that joined the next clause belong to neither.
    words = [t for t in words if not (t.dep_ == "cc" and t.head.i == head.i)]
    while words and (words[0].is_punct or words[0].dep_ == "cc" or words[0].lower_ in _LINKING):
        words.pop(0)
    while words and (words[-1].is_punct or words[-1].dep_ == "cc"):
        words.pop()
    return words


def _phrase(token: Token) -> str:
    return "".join(t.text_with_ws for t in token.subtree).strip()


def _sentence(text: str, end: str = ".") -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + end


def _value_phrase(token: Token) -> str:
    """The noun phrase a value is written in, without its determiner, possessive or relative clause ("a beagle
    called Juniper" keeps its name)."""
    skip: set[int] = set()
    for t in token.children:
        if t.i > token.i and (
            t.dep_ in ("relcl", "advmod", "punct", "appos", "cc", "conj")
            or (t.dep_ == "prep" and t.lower_ in _TARGET_PREPS | _SOURCE_PREPS)
        ):
            skip.update(s.i for s in t.subtree)
    words = [t for t in token.subtree if t.i not in skip]
    while words and (words[0].dep_ in ("det", "poss", "case") or words[0].lower_ in ("my", "his", "her", "their")):
        words.pop(0)
    return "".join(t.text_with_ws for t in words).strip()


def _value_type(token: Token) -> str:
    labels = [t.ent_type_ for t in token.subtree if t.ent_type_]
    for label in labels:
        if label in _VALUE_TYPES:
            return _VALUE_TYPES[label]
    return "THING"


def _verb_key(head: Token) -> str:
    particle = next((c.lower_ for c in head.children if c.dep_ == "prt"), "")
    return f"{head.lemma_.lower()} {particle}".strip()


def _objects(head: Token) -> list[tuple[str, Token]]:
    """(role, token) of the head's values: direct ones ("" role) and prepositional ones (the preposition). A change's
    source and target may hang below a direct object or an open complement ("switched jobs from X to Y", "replaced X
    with Y", "stopped volunteering at X"): those are the head's too."""
    found: list[tuple[str, Token]] = []

    def prepositional(prep: Token) -> None:
        for grand in prep.children:
            if grand.dep_ == "prep" and grand.lower_ in _TARGET_PREPS | _SOURCE_PREPS:  # "from X to Y": "to" below
                prepositional(grand)  # "from"
            elif grand.dep_ in ("pobj", "pcomp"):
                found.append((prep.lower_, grand))
                for nested in grand.children:  # "from X to Y": "to" below X
                    if nested.dep_ == "prep" and nested.lower_ in _TARGET_PREPS | _SOURCE_PREPS:
                        prepositional(nested)

    for child in head.children:
        if child.dep_ in _OBJECT_DEPS:
            found.append(("", child))
            for nested in child.children:
                if nested.dep_ == "prep" and nested.lower_ in _TARGET_PREPS | _SOURCE_PREPS:
                    prepositional(nested)
        elif child.dep_ == "agent":  # "is employed by X"
            found.extend(("by", g) for g in child.children if g.dep_ == "pobj")
        elif child.dep_ == "prep":
            prepositional(child)
        elif child.dep_ == "xcomp":  # "stopped being a nurse", "stopped volunteering at the food bank"
            for grand in child.children:
                if grand.dep_ in _OBJECT_DEPS:
                    found.append(("", grand))
                elif grand.dep_ == "prep":
                    prepositional(grand)
    return found


def _read(clause: Clause, head: Token, subject: Token | None) -> None:
    """Fills the clause's predicate, value, source values, polarity, aspect and addition from its parse."""
    clause.polarity = not any(c.dep_ == "neg" for c in head.children)
    no_longer = any(c.lower_ == "longer" for c in head.children) or any(
        c.lower_ == "anymore" for c in head.subtree if c.head.i == head.i
    )
    clause.adds = any(t.lower_ in _ADDITIVE for t in head.children) or any(
        t.lower_ == "another" for _, o in _objects(head) for t in o.children
    )
    verb = _verb_key(head)
    objects = _objects(head)
    sources = [tok for role, tok in objects if role in _SOURCE_PREPS]
    targets = [(role, tok) for role, tok in objects if role in _TARGET_PREPS]
    # The subject's owner: "my manager is X", "Maribel's car changed from X to Y" name the attribute the value
    # fills; "my sister lives in Rome" is the sister's, someone memory keeps no facts of.
    if subject is not None:
        owner = next((c for c in subject.children if c.dep_ == "poss"), None)
        # ... and "my dog died" ends the teller's fact holding the dog
        owns_attribute = (
            head.lemma_ == "be" or bool(sources and targets) or head.lemma_.lower() in _SUBJECT_ENDING_VERBS
        )
        if owner is not None and subject.pos_ == "NOUN":
            clause.owner = owner.text
            clause.slot_noun = _noun(subject)
        clause.personal = _personal(owner if owner is not None else subject) and (owner is None or owns_attribute)
    ends, value, role = _change_of(clause, head, subject, objects, verb, no_longer)
    if value is not None:
        clause.value_head = value.lemma_.lower()
        clause.value = _value_phrase(value)
        clause.value_type = _value_type(value)
    clause.ends = [p for p in (_value_phrase(t) for t in ends) if p]
    _read_predicate(clause, head, subject, value, role, verb)
    # "I rent from Harlow Lettings now", "... instead": a state told as new, which replaces the one before it.
    clause.renews = any(c.lower_ in _RENEWING for c in head.subtree if c.dep_ in ("advmod", "npadvmod"))
    # A state: what holds in the present, or the new value of a change; an event: what happened.
    auxiliaries = [c.tag_ for c in head.children if c.dep_ in ("aux", "auxpass")]
    past = head.tag_ == "VBD" or "VBD" in auxiliaries or (head.tag_ == "VBN" and not auxiliaries)
    changes = bool(clause.ends)
    clause.event = (past and not (changes and clause.value)) or (changes and not clause.value)


def _change_of(
    clause: Clause, head: Token, subject: Token | None, objects: list[tuple[str, Token]], verb: str, no_longer: bool
) -> tuple[list[Token], Token | None, str]:
    """What the clause ends (old values in a source role) and the value it holds, with the value's role."""
    sources = [tok for role, tok in objects if role in _SOURCE_PREPS]
    targets = [(role, tok) for role, tok in objects if role in _TARGET_PREPS]
    direct = [tok for role, tok in objects if role == ""]
    ends: list[Token] = []
    value: Token | None = None
    role = ""
    if sources and targets:  # "moved from X to Y", "changed from X to Y"
        ends = sources
        role, value = targets[0]
    elif (verb in _ENDING_VERBS or head.lemma_.lower() in _ENDING_VERBS) and objects:
        # "sold X and bought Y", "traded (in) X for Y", "replaced X with Y", "broke up with X", "quit X"
        old = direct or [tok for r, tok in objects if r not in _TARGET_PREPS or (r == "with" and not direct)]
        ends = old[:1] if old else []
        new = [(r, tok) for r, tok in targets if not ends or tok.i != ends[0].i]
        if new and new[0][0] in ("for", "with", "to") and ends:  # "traded X for Y", "upgraded X to Y"
            role, value = new[0]
    elif (
        head.lemma_.lower() in _SUBJECT_ENDING_VERBS
        and subject is not None
        and subject.lower_ not in _FIRST_PERSON
        and not direct
    ):
        ends = [subject]  # "Ottoline left, so ...", "Juniper passed away"
    elif no_longer and direct:  # "I no longer have X"
        ends = direct[:1]
        clause.polarity = True  # the end is what it says, not a negated state
    elif sources and (head.lemma_ == "be" or verb in _ENDING_VERBS):  # "I am off X", "retired from X"
        ends = sources[:1]
    if value is None and not ends:
        # A date says when, not what: "on Monday I start at Brindle Foods" has Brindle Foods for its value.
        # A pronoun stands for a value said elsewhere: "watches everything on Mubi" has Mubi for its value.
        undated = [(r, tok) for r, tok in objects if _value_type(tok) != "DATE" and tok.pos_ != "PRON"] or objects
        picked = [tok for r, tok in undated if r == ""][:1] or [tok for r, tok in undated][:1]
        if picked:
            value = picked[0]
            role = next((r for r, tok in objects if tok.i == value.i), "")
    if value is None and not ends:
        # A name the parser took for an adverb is still a name: "I am learning Turkish" (Turkish: advmod).
        value = next((c for c in head.children if c.dep_ in ("advmod", "npadvmod") and c.text[:1].isupper()), None)
    return ends, value, role


def _read_predicate(
    clause: Clause, head: Token, subject: Token | None, value: Token | None, role: str, verb: str
) -> None:
    """The predicate: the verb and the value's role, or for "be" the attribute named."""
    if head.lemma_ == "be" and clause.value:
        attribute = clause.slot_noun or (
            _noun(value) if value is not None and value.pos_ == "NOUN" and not role else ""
        )
        if clause.slot_noun == "" and value is not None and any(c.dep_ == "poss" for c in value.children):
            # "Ottoline is my boss": the value is the subject, the attribute the possessed noun
            clause.slot_noun = _noun(value)
            possessor = next(c for c in value.children if c.dep_ == "poss")
            clause.owner = possessor.text
            clause.personal = _personal(possessor)
            if subject is not None:
                clause.value, clause.value_type = _value_phrase(subject), _value_type(subject)
                clause.value_head = subject.lemma_.lower()
            attribute = clause.slot_noun
        clause.predicate = f"be {attribute or role}".strip()
    else:
        clause.predicate = f"{verb} {role}".strip()


def _personal(who: Token) -> bool:
    return who.pos_ == "PROPN" or who.lower_ in _FIRST_PERSON | _GROUP | _THIRD


def _noun(token: Token) -> str:
    """An attribute noun with its compound modifiers: "job title", "running club"."""
    words = [c for c in token.children if c.dep_ == "compound" and c.i < token.i] + [token]
    return " ".join(t.lemma_.lower() for t in sorted(words, key=lambda t: t.i))
