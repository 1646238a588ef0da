from engram.extraction.keyphrases import extract_keyphrases, normalize_key, title_key


def test_normalisation_folds_case_plural_and_punctuation() -> None:
    assert normalize_key("Support Groups") == "support group"
    assert normalize_key("New-York City's") == "new york city"
    assert normalize_key("Hobbies") == "hobby"
    assert normalize_key("!!") == ""


def test_phrases_are_runs_of_content_words_and_names_stand_alone() -> None:
    keys = [
        k.key
        for k in extract_keyphrases("Melanie painted a sunrise over the lake with her kids", frozenset({"Melanie"}))
    ]
    assert "melanie" in keys
    assert {"sunrise", "lake", "kid"} <= set(keys)
    assert not any("painted" in k for k in keys)


def test_multiword_phrases_rank_first() -> None:
    phrases = extract_keyphrases("Caroline went to a LGBTQ support group and it was powerful", frozenset({"Caroline"}))
    assert phrases[0].key == "lgbtq support group"


def test_a_title_names_its_subject_without_qualifier_or_article() -> None:
    assert title_key("The Lake District") == "lake district"
    assert title_key("Alphaville (band)") == "alphaville"
    assert title_key("Alice in Wonderland (1951 film)") == "alice in wonderland"
    assert title_key("Ackworth, West Yorkshire") == "ackworth west yorkshire"  # a comma is part of the name
    assert title_key("A-flat clarinet") == "a flat clarinet"  # not an article
    assert title_key("Theatre Royal") == "theatre royal"
    assert title_key("Grateful Dead (The) (band)") == "grateful dead the"  # only the last qualifier goes
    assert title_key("Bridget Jones’s Diaries") == "bridget jones diary"
    assert title_key("(untitled)") == ""
