"""What belongs to a category, read from a tiny file in WordNet's data.noun format written here (not the real data):
kinds below a category to a depth, words most of whose senses are other things left out, whole-word matching of the
kinds in a counted memory, and the mechanism off without the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graph.aggregate.answer import restricted
from graph.aggregate.categories import parse, taxonomy, word_forms
from graph.aggregate.compute import stems
from graph.aggregate.intent import aggregate_intent

# Two licence lines, then synsets: fruit > citrus (3 lemmas) > lime, orange > navel orange; lime has three more
# senses elsewhere (a caustic substance...), and clothing > garment > blazer, with a "+" pointer to a verb.
DATA_NOUN = """\
  1 This software and database is being provided to you, the LICENSEE, by
  2 Princeton University under the following license.
00000100 13 n 01 fruit 0 001 ~ 00000200 n 0000 | the ripened reproductive body of a seed plant
00000200 13 n 03 citrus 0 citrus_fruit 0 citrous_fruit 0 003 @ 00000100 n 0000 ~ 00000300 n 0000 ~ 00000400 n 0000 | \
any of numerous fruits of the genus Citrus
00000300 13 n 01 lime 0 001 @ 00000200 n 0000 | the green acidic fruit of any of various lime trees
00000400 13 n 01 orange 0 002 @ 00000200 n 0000 ~ 00000500 n 0000 | round yellow to orange fruit
00000500 13 n 02 navel_orange 0 blood_orange 0 001 @ 00000400 n 0000 | an orange
00000600 27 n 01 lime 1 000 | a caustic substance produced by heating limestone
00000700 06 n 06 clothing 0 article_of_clothing 0 vesture 0 wear 0 wearable 0 habiliment 0 001 ~ 00000800 n 0000 | \
a covering designed to be worn on a person's body
00000800 06 n 01 garment 0 002 @ 00000700 n 0000 ~ 00000900 n 0000 | an article of clothing
00000900 06 n 01 blazer 0 002 @ 00000800 n 0000 + 00001000 v 0101 | lightweight single-breasted jacket
"""


def nouns() -> Any:
    return parse(DATA_NOUN.splitlines())


def test_the_kinds_below_a_category_to_a_depth() -> None:
    taxonomy_ = nouns()
    assert taxonomy_.kinds_of("citrus", 5, 0.0) == {"lime", "orange", "navel orange", "blood orange"}
    assert taxonomy_.kinds_of("citrus", 1, 0.0) == {"lime", "orange"}
    assert taxonomy_.kinds_of("clothing", 5, 0.0) == {"garment", "blazer"}
    assert taxonomy_.kinds_of("fruits", 1, 0.0) == {"citrus", "citrus fruit", "citrous fruit"}  # a plural's noun
    assert taxonomy_.kinds_of("blazer", 5, 0.0) == set()  # nothing below it
    assert taxonomy_.kinds_of("rare", 5, 0.0) == set()  # no noun


def test_a_word_most_of_whose_senses_are_other_things_names_no_kind() -> None:
    # lime: 1 of its 2 senses is a citrus fruit.
    assert "lime" in nouns().kinds_of("citrus", 5, 0.5)
    assert "lime" not in nouns().kinds_of("citrus", 5, 0.6)
    assert "orange" in nouns().kinds_of("citrus", 5, 0.6)


def test_a_plural_is_read_as_its_noun() -> None:
    taxonomy_ = parse(["00000100 13 n 01 berry 0 000 | a small fruit", "00000200 06 n 01 box 0 000 | a container"])
    assert (taxonomy_.noun("berries"), taxonomy_.noun("boxes"), taxonomy_.noun("Berry"), taxonomy_.noun("kiwis")) == (
        "berry",
        "box",
        "berry",
        None,
    )


def test_kinds_are_matched_as_whole_words_in_the_counted_memories() -> None:
    forms = word_forms(["lime", "navel orange", "berry", "box"])
    assert forms == sorted(
        ["lime ", "limes ", "navel orange ", "navel oranges ", "berry ", "berries ", "box ", "boxes "]
    )
    intent = aggregate_intent("How many different types of citrus fruits have I used in my cocktail recipes?")
    assert intent is not None and intent.restrictors == ("citrus",)
    rows = [
        {"id": str(i), "text": text, "similarity": 0.7}
        for i, text in enumerate(
            [
                "User made a daiquiri with fresh lime juice.",
                "User garnished the gin with a cucumber-lime slice.",
                "User bought two navel oranges.",
                "User used citrus peel in the syrup.",
                "User visited the limestone caves.",  # no lime
                "User used honey syrup in a whiskey sour.",
            ]
        )
    ]
    kinds = {"citrus": word_forms(nouns().kinds_of("citrus", 5, 0.0))}
    kept = [row["id"] for row in restricted(rows, intent, 0.8, kinds)]
    assert kept == ["0", "1", "2", "3"]
    assert [row["id"] for row in restricted(rows, intent, 0.8)] == ["3"]  # without the kinds: the word only
    # The kinds are further forms of the narrowing word, as the matching statement's terms are given to Cypher.
    assert stems(["citrus", "cocktail"], {"citrus": ["lime "]}) == [["citru", "lime "], ["cocktail"]]


def test_no_data_means_no_kinds(tmp_path: Path) -> None:
    assert taxonomy(tmp_path / "absent") is None
    (tmp_path / "data.noun").write_text(DATA_NOUN, encoding="utf-8")
    found = taxonomy(tmp_path)
    assert found is not None and "blazer" in found.kinds_of("clothing", 5, 0.3)
