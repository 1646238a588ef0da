"""Concept keys from keyphrases: candidate phrases are maximal runs of content words (RAKE-style),
plus capitalised names; keys are normalised (case, punctuation, plural) so variants meet on one key."""

from __future__ import annotations

import re
from dataclasses import dataclass

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are aren't as at be because been before being
    below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during
    each few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers
    herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself just let's me
    more most mustn't my myself no nor not of off on once only or other ought our ours ourselves out over own
    same shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them
    themselves then there there's these they they'd they'll they're they've this those through to too under
    until up very was wasn't we we'd we'll we're we've were weren't what what's when when's where where's which
    while who who's whom why why's with won't would wouldn't you you'd you'll you're you've your yours yourself
    yourselves will shall may might must ever never always still yet already even really quite pretty much many
    lot lots thing things stuff something anything everything nothing someone anyone everyone way ways
    yeah yes yep ok okay oh hey hi hello wow thanks thank cool great good nice awesome amazing glad sure
    totally definitely absolutely actually probably maybe kind sort like love loved loves want wanted wants
    need needed think thought feel felt know knew get got getting make made go went going gone come came take
    took see saw say said tell told hope hoped try tried keep kept look looked looking seems seem seemed give
    gave let put really one ones time times day days today yesterday tomorrow week weeks month months year years
    last next ago recently lately soon well back around able also though although however especially
    image photo picture pic super fun happy sounds sound awesome incredible wonderful fantastic lovely beautiful true right just""".split()
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]|\d+")
_SPLIT = re.compile(r"[.,;:!?()\[\]\"“”/&]+|\s+-\s+")
MAX_PHRASE_WORDS = 3


def singular(word: str) -> str:
    if len(word) <= 3 or word.endswith(("ss", "us", "is", "ics")):
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


@dataclass(frozen=True)
class Keyphrase:
    key: str
    display: str
    score: float


def _is_content(bare: str) -> bool:
    if bare in STOPWORDS or len(bare) < 2 or bare.isdigit():
        return False
    # Without a part-of-speech tagger, past-tense verbs and participles ("painted", "excited") break phrases.
    return not (len(bare) > 4 and bare.endswith("ed"))


def extract_keyphrases(text: str, names: frozenset[str] = frozenset(), limit: int = 5) -> list[Keyphrase]:
    """Ranked concept-key candidates of `text`: multi-word phrases and names first."""
    candidates: dict[str, Keyphrase] = {}

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
