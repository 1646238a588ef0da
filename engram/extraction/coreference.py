"""Make an utterance self-contained: first- and second-person references become the speaker's and the
addressee's names ("I went" -> "Caroline went", "your painting" -> "Melanie's painting")."""

from __future__ import annotations

import re

from engram.extraction.wordlists import load_wordlist

# Present-tense verbs that follow "I"/"you" and need the third person once a name stands there.
_IRREGULAR = {"am": "is", "are": "is", "have": "has", "do": "does", "go": "goes", "was": "was", "were": "was"}
_COMMON_VERBS = load_wordlist("present_verbs")


def _third_person(verb: str) -> str:
    lower = verb.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if lower not in _COMMON_VERBS:
        return verb
    if re.search(r"(s|sh|ch|x|z|o)$", lower):
        return verb + "es"
    if re.search(r"[^aeiou]y$", lower):
        return verb[:-1] + "ies"
    return verb + "s"


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
        adverb = match.group("adv") or ""
        return f"{name} {adverb}{_third_person(match.group('verb'))}"

    out = re.sub(
        r"\bI (?P<adv>(?:\w+ly |just |still |also |always |never )?)(?P<verb>\w+)",
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
