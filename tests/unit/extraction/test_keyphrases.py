from engram.extraction.keyphrases import extract_keyphrases, normalize_key


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
