from engram.extraction.sentences import split_sentences


def test_circa_before_a_year_ends_no_sentence_but_before_a_word_it_may() -> None:
    text = "Louis V (c.\u2009966 – 21 May 987) was king. Alfgar (died ca. 1060) was an earl. Steps: b. c. Must do it."
    assert split_sentences(text) == [
        "Louis V (c.\u2009966 – 21 May 987) was king.",
        "Alfgar (died ca. 1060) was an earl.",
        "Steps: b. c.",
        "Must do it.",
    ]
