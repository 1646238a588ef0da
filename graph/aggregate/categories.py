"""What belongs to a category: the kinds WordNet 3.0's noun hierarchy names under it ("lime" and "orange" under
"citrus", "blazer" under "clothing"), so that a count narrowed by a category word ("how many items of clothing",
"types of citrus fruits") also counts memories naming a kind of it, never the word itself.

The data is WordNet's own `data.noun` file (Princeton's WordNet 3.0 licence; installed by infra/install.sh into
`ENGRAM_WORDNET_DIR`), read here without a library: one synset a line, `offset lex_filenum n w_cnt(hex) [word
lex_id]* p_cnt [pointer offset pos source/target]* | gloss`, where `~` and `~i` point to the synset's kinds
(hyponyms, instances). Without the file the mechanism is off (logged once), never an error.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

log = logging.getLogger(__name__)
_KIND_POINTERS = frozenset(["~", "~i"])


@dataclass(frozen=True)
class Taxonomy:
    """Nouns and their kinds, from WordNet's data.noun."""

    senses: Mapping[str, tuple[int, ...]]  # a lower-case lemma ("citrus_fruit") -> its noun synsets
    lemmas: Mapping[int, tuple[str, ...]]  # a synset -> its lemmas
    kinds: Mapping[int, tuple[int, ...]]  # a synset -> its hyponyms and instances

    def noun(self, word: str) -> str | None:
        """The lemma a word is a form of ("fruits" -> "fruit", "berries" -> "berry"), None where it is no noun."""
        word = word.lower().replace(" ", "_")
        candidates = [word]
        if word.endswith("ies"):
            candidates.append(word[:-3] + "y")
        if word.endswith("es"):
            candidates.append(word[:-2])
        if word.endswith("s") and not word.endswith("ss"):
            candidates.append(word[:-1])
        return next((c for c in candidates if c in self.senses), None)

    def kinds_of(self, category: str, depth: int, min_sense_share: float) -> frozenset[str]:
        """The lemmas (spaces for underscores) of every kind of any sense of `category`, at most `depth` levels down,
        keeping only words at least `min_sense_share` of whose noun senses are such kinds: "lime" (the fruit and
        the tree of 6 senses) is a citrus, "black" (1 of its 8 senses is mourning clothes) is no item of clothing."""
        lemma = self.noun(category)
        if lemma is None:
            return frozenset()
        below: set[int] = set()
        frontier = list(self.senses[lemma])
        for _ in range(depth):
            frontier = [kind for synset in frontier for kind in self.kinds.get(synset, ()) if kind not in below]
            below.update(frontier)
        words = {word for synset in below for word in self.lemmas[synset]}
        return frozenset(
            word.replace("_", " ")
            for word in words
            if word != lemma and sum(s in below for s in self.senses[word]) >= min_sense_share * len(self.senses[word])
        )


def parse(lines: Iterable[str]) -> Taxonomy:
    """A taxonomy from the lines of WordNet's data.noun (its licence header lines start with spaces)."""
    senses: dict[str, list[int]] = {}
    lemmas: dict[int, tuple[str, ...]] = {}
    kinds: dict[int, tuple[int, ...]] = {}
    for line in lines:
        if line.startswith(" ") or not line.strip():
            continue
        fields = line.split(" | ", 1)[0].split()
        offset, count = int(fields[0]), int(fields[3], 16)
        words = tuple(fields[4 + 2 * i].lower() for i in range(count))
        at = 4 + 2 * count
        pointers = int(fields[at])
        targets = fields[at + 1 : at + 1 + 4 * pointers]
        kinds[offset] = tuple(
            int(targets[i + 1])
            for i in range(0, len(targets), 4)
            if targets[i] in _KIND_POINTERS and targets[i + 2] == "n"
        )
        lemmas[offset] = words
        for word in words:
            senses.setdefault(word, []).append(offset)
    return Taxonomy({w: tuple(s) for w, s in senses.items()}, lemmas, kinds)


@cache
def taxonomy(directory: Path) -> Taxonomy | None:
    """The taxonomy in `directory`/data.noun, read once per process; None (logged once) where it is not there."""
    path = directory / "data.noun"
    if not path.is_file():
        log.info("no WordNet data at %s: counts match a category's own words only (infra/install.sh installs it)", path)
        return None
    with path.open(encoding="utf-8") as lines:
        return parse(lines)


def word_forms(kinds: Iterable[str]) -> list[str]:
    """Whole-word forms of each kind, singular and plural, as matched against text whose punctuation is spaced out
    and which ends in a space: the trailing space keeps "tie" from matching "tied"."""
    forms: set[str] = set()
    for kind in kinds:
        plural = kind[:-1] + "ies" if kind.endswith("y") and kind[-2:-1] not in "aeiou" else kind + "s"
        if kind.endswith(("s", "x", "ch", "sh")):
            plural = kind + "es"
        forms.update((kind + " ", plural + " "))
    return sorted(forms)
