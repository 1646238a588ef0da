"""BM25 with a space's own term statistics (graph/recall/bm25.py)."""

from __future__ import annotations

from graph.recall.bm25 import (
    TermStatistics,
    analysed,
    analyze,
    bm25_scores,
    distinctive_coverage,
    distinctive_weights,
)


def test_text_is_analysed_as_the_english_full_text_index_does() -> None:
    # Lower case, the possessive dropped, Lucene's English stop words dropped, Porter stems; hyphens split words.
    assert analyze("The User's new 70-200mm Zoom lenses, and painting the paintings") == [
        "user",
        "new",
        "70",
        "200mm",
        "zoom",
        "lens",
        "paint",
        "paint",
    ]


def test_a_term_rare_in_the_space_weighs_more_than_a_common_one() -> None:
    statistics = TermStatistics(documents=100, holding={"zebra": 1, "lens": 60}, mean_chars=15)
    zebra, lens = bm25_scores(analysed(["a zebra crossing", "a cracked lens"]), ["zebra", "lens"], statistics)
    assert zebra > lens > 0
    flooded = TermStatistics(documents=100, holding={"zebra": 60, "lens": 1}, mean_chars=15)
    zebra, lens = bm25_scores(analysed(["a zebra crossing", "a cracked lens"]), ["zebra", "lens"], flooded)
    assert lens > zebra


def test_a_longer_text_and_a_text_without_the_terms_score_less() -> None:
    statistics = TermStatistics(documents=10, holding={"lens": 3}, mean_chars=20)
    short, long, none = bm25_scores(
        analysed(["my lens", "my lens and my tripod and my bag and my camera strap", "my tripod"]), ["lens"], statistics
    )
    assert short > long > none == 0
    # Each further occurrence adds less than the one before (term frequency saturates).
    once, twice, thrice = bm25_scores(
        analysed(["lens xxxx xxxx xxxx", "lens lens xxxx xxxx", "lens lens lens xxxx"]), ["lens"], statistics
    )
    assert twice - once > thrice - twice > 0


def test_an_inflected_query_term_matches_as_the_index_matched_it() -> None:
    statistics = TermStatistics(documents=10, holding={"paintings": 2}, mean_chars=20)
    painted, unrelated = bm25_scores(
        analysed(["She painted a painting", "She drew a sketch"]), ["paintings"], statistics
    )
    assert painted > 0 and unrelated == 0


def test_a_hit_counts_by_the_share_of_the_querys_distinctive_words_it_holds() -> None:
    # "quillon" is held by 1 of 200 documents, "rotation" by 2: distinctive at a share of 0.02; "shift" (40) is not.
    statistics = TermStatistics(documents=200, holding={"quillon": 1, "rotation": 2, "shift": 40}, mean_chars=30)
    terms = ["quillon", "rotation", "shift"]
    texts = ["Quillon works the night shift", "the shift rotation sheet", "one more shift", "Quillon's rotation"]
    weights = distinctive_weights(terms, statistics, share=0.02)
    assert sorted(weights) == ["quillon", "rotat"]  # analysed as the index analyses them
    named, drafted, common, both = distinctive_coverage(analysed(texts), weights)
    assert both == 1.0 and 0 < drafted < named < 1.0 and common == 0.0
    assert named == statistics.idf("quillon") / (statistics.idf("quillon") + statistics.idf("rotation"))


def test_in_a_space_of_a_few_documents_no_word_is_distinctive() -> None:
    # Four documents: a word held by one of them is a quarter of the space, so every hit keeps its full vote.
    statistics = TermStatistics(documents=4, holding={"coin": 4, "collection": 1}, mean_chars=40)
    texts = ["I have 25 rare coins", "store a coin collection"]
    assert distinctive_weights(["coin", "collection"], statistics, share=0.02) == {}
    assert distinctive_coverage(analysed(texts), {}) == [1.0, 1.0]
    # Where no hit holds a distinctive word there is no best to measure against: all keep their votes.
    assert distinctive_coverage(
        analysed(["nothing here"]), distinctive_weights(["collection"], statistics, share=0.5)
    ) == [1.0]
