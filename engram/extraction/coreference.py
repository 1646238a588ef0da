"""Make an utterance self-contained: first- and second-person references become the speaker's and the
addressee's names ("I went" -> "Caroline went", "your painting" -> "Melanie's painting")."""

from __future__ import annotations

import re

from engram.extraction.wordlists import load_wordlist

# After "I" comes a verb (or an adverb, then a verb): once a name stands there, a present-tense verb takes the third
# person ("Yes, I build" -> "Priya builds", "if I forget" -> "if Tom forgets"). A modal, a past form, a negated
# auxiliary other than these, or a word that is no verb ("I myself") stays as said.
_IRREGULAR = {
    "am": "is", "are": "is", "have": "has", "do": "does", "go": "goes", "was": "was", "were": "was",
    "don't": "doesn't", "haven't": "hasn't", "don’t": "doesn’t", "haven’t": "hasn’t",
}  # fmt: skip
_MODALS = frozenset({"can", "could", "will", "would", "shall", "should", "may", "might", "must", "ought"})
_PAST = load_wordlist("past_verbs")
_NOT_VERBS = load_wordlist("function_words")
_ADVERBS = load_wordlist("subject_adverbs")
_ADVERB = rf"(?:\w+ly|{'|'.join(sorted(_ADVERBS))})"
# "Tom and I live", "My wife and I run": a compound subject at a clause's start keeps the plural verb.
_COMPOUND_SUBJECT = re.compile(
    r"(?:^|[.,;:!?]\s+|\b(?:when|because|if|while|since|after|before|that|so)\s+)"
    r"(?!(?:[Ii]t|[Hh]e|[Ss]he|[Tt]hey|[Ww]e|[Yy]ou|[Tt]his|[Tt]hat|[Tt]here|[Ss]o|[Tt]hen)\b)"
    r"(?:[Mm]y|[Oo]ur|[Tt]he|[Hh]is|[Hh]er|[Tt]heir|[Yy]our|[A-Z][a-z]+)(?:\s+[\w'’]+){0,2}\s+(?:and|or)\s+$"
)


def _third_person(verb: str) -> str:
    lower = verb.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if (
        not lower.isalpha()  # "can't", "didn't": the negated auxiliaries other than don't/haven't agree already
        or lower in _MODALS
        or lower in _PAST
        or lower in _NOT_VERBS
        or (lower.endswith("ed") and not lower.endswith("eed"))  # "painted", not "need"
        or len(lower) < 2
    ):
        return verb
    if re.search(r"(s|sh|ch|x|z|o)$", lower):
        return verb + "es"
    if re.search(r"[^aeiou]y$", lower):
        return verb[:-1] + "ies"
    return verb + "s"


# An auxiliary right before the pronoun: the verb after it keeps its form ("Can I use", "Didn't I say").
_AFTER_AUXILIARY = re.compile(
    r"\b(?:can|could|should|would|will|shall|may|might|must|did|does|do)(?:n['’]t)?\s+$", re.IGNORECASE
)


def _sub(pattern: str, replacement: str, text: str) -> str:
    """`re.sub` with `replacement` taken literally: names are user data, and a template would read a backslash in
    one (`A\\1`, `\\g<0>`) as a group reference and fail or splice in other text."""
    return re.sub(pattern, lambda _: replacement, text)


def _inverted(text: str, verbs: str, pronoun: str, name: str) -> str:
    def agree(match: re.Match[str]) -> str:
        verb = _third_person(match.group("verb"))
        return f"{verb[0].upper() if match.group('verb')[0].isupper() else verb[0]}{verb[1:]} {name}"

    return re.sub(rf"\b(?P<verb>{verbs}) {pronoun}\b", agree, text)


def resolve_persons(text: str, speaker: str, addressee: str | None) -> str:
    """Replace I/me/my/mine/myself (and you/your/yours/yourself when the addressee is known)."""
    if not speaker:
        return text
    out = text
    contractions = [
        (r"\bI'm\b", f"{speaker} is"), (r"\bI've\b", f"{speaker} has"), (r"\bI'll\b", f"{speaker} will"),
        (r"\bI'd\b", f"{speaker} would"),
    ]  # fmt: skip
    if addressee:
        contractions += [
            (r"\b[Yy]ou're\b", f"{addressee} is"), (r"\b[Yy]ou've\b", f"{addressee} has"),
            (r"\b[Yy]ou'll\b", f"{addressee} will"), (r"\b[Yy]ou'd\b", f"{addressee} would"),
        ]  # fmt: skip
    for pattern, repl in contractions:
        out = _sub(pattern.replace("'", "['’]"), repl, out)
    # Questions put the verb first: "Are you making bowls?" -> "Is Maya making bowls?".
    out = _inverted(out, r"[Aa]m|[Dd]o|[Hh]ave|[Ww]as", "I", speaker)
    if addressee:
        out = _inverted(out, r"[Aa]re|[Dd]o|[Hh]ave|[Ww]ere", "[Yy]ou", addressee)

    def subject_verb(match: re.Match[str], name: str) -> str:
        adverb, verb = match.group("adv") or "", match.group("verb")
        before = match.string[max(0, match.start() - 200) : match.start()]  # its clause: bounded, not quadratic
        if _AFTER_AUXILIARY.search(before) or _COMPOUND_SUBJECT.search(before):
            return f"{name} {adverb}{verb}"  # "Should I put", "Tom and I live": the verb's form is right already
        return f"{name} {adverb}{_third_person(verb)}"

    out = re.sub(
        rf"\bI (?P<adv>(?:{_ADVERB} ){{0,2}})(?P<verb>\w+n['’]t\b|\w+)",
        lambda m: subject_verb(m, speaker),
        out,
    )
    out = _sub(r"\bI\b", speaker, out)
    out = _sub(r"\b[Mm]yself\b", speaker, out)
    out = _sub(r"\b[Mm]ine\b", f"{speaker}'s", out)
    out = _sub(r"\b[Mm]y\b", f"{speaker}'s", out)
    out = _sub(r"\bme\b", speaker, out)
    if addressee:
        out = re.sub(
            r"\b[Yy]ou (?P<adv>(?:\w+ly |just |still |also |always |never )?)(?P<verb>are|were|have|do|go)\b",
            lambda m: subject_verb(m, addressee), out,
        )  # fmt: skip
        out = _sub(r"\b[Yy]ourself\b", addressee, out)
        out = _sub(r"\b[Yy]ours\b", f"{addressee}'s", out)
        out = _sub(r"\b[Yy]our\b", f"{addressee}'s", out)
        out = _sub(r"\b[Yy]ou\b", addressee, out)
    return out


# Relations that say a person's gender, and those that do not (either pronoun may mean such a person).
_FEMALE = load_wordlist("female_relations")
_MALE = load_wordlist("male_relations")
_EITHER = load_wordlist("either_relations")
# "my sister Ana", "Melanie's best friend Jo", "our neighbour, Sam".
_INTRODUCED = re.compile(
    r"\b(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir|[A-Z][a-z]+['’]s)\s+(?:(?:little|older|younger|big|best|baby|twin|"
    r"new|old|dear)\s+)?(?P<relation>[a-z]+),?\s+(?P<name>[A-Z][a-z]+)\b"
)
# "her" is an object before these (or a clause's end), a possessive before anything else ("her bowl").
_AFTER_OBJECT = r"(?=[\s]*(?:[.,;:!?)]|$|\s(?:in|on|at|to|for|with|about|from|next|last|this|that|and|or|again|too|"
_AFTER_OBJECT += r"soon|later|yesterday|today|tomorrow|back|up|out|off|around|every|some|a|an|the|everything|something|"
_AFTER_OBJECT += r"anything|nothing|all|how|what|when|why|where|if|whether|so|because)\b))"


class ThirdPersons:
    """The people an utterance has introduced by their relation ("my sister Ana"), so that a later sentence's "she",
    "her", "he", "him" or "his" can name them: "She is moving to Berlin" -> "Ana is moving to Berlin". A pronoun is
    resolved only when exactly one person introduced so far may be meant (by the relation's gender): a statement
    must stand on its own, and a wrong name is worse than a pronoun."""

    def __init__(self) -> None:
        self._people: dict[str, str] = {}  # name -> "f", "m" or "" (either)

    def learn(self, sentence: str) -> None:
        for match in _INTRODUCED.finditer(sentence):
            relation = match.group("relation")
            gender = "f" if relation in _FEMALE else "m" if relation in _MALE else "" if relation in _EITHER else None
            if gender is not None:
                self._people[match.group("name")] = gender

    def _meant(self, gender: str) -> str | None:
        candidates = [name for name, known in self._people.items() if known in (gender, "")]
        return candidates[0] if len(candidates) == 1 else None

    def resolve(self, sentence: str) -> str:
        out = sentence
        for gender, subject, obj, possessive in (("f", "She", "her", "her"), ("m", "He", "him", "his")):
            name = self._meant(gender)
            if name is None:
                continue
            pronoun = rf"(?:^{subject}|\b{subject.lower()})"
            out = _sub(rf"{pronoun}['’]s(?= (?:been|got)\b)", f"{name} has", out)
            out = _sub(rf"{pronoun}['’]s\b", f"{name} is", out)
            out = _sub(rf"{pronoun}\b", name, out)
            out = _sub(rf"\b{obj}\b{_AFTER_OBJECT}", name, out)
            out = _sub(rf"\b{possessive}\b", f"{name}'s", out)
        return out
