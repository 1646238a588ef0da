from engram.extraction.markup import plain, plain_sentences
from engram.extraction.sentences import split_sentences


def test_a_markdown_list_item_reads_as_a_sentence() -> None:
    assert plain("Tips:\n\n1. **Cuff or roll**: Cuff the *hem* to show off your shoes.") == (
        "Tips: Cuff or roll: Cuff the hem to show off your shoes."
    )
    assert plain("### Ladybugs\n- Release them at __dusk__") == "Ladybugs Release them at dusk"


def test_what_only_looks_like_markup_stays() -> None:
    for text in ("5 * 3 = 15 and 2*4 is 8", "-5 degrees today", "my_file_name.txt", "1990. That was the year."):
        assert plain(text) == text


def test_a_sentence_cut_mid_line_keeps_a_closing_bracket_but_not_a_run_in_list_number() -> None:
    text = "Ceinfyn (c. 990) was a nobleman. Dishes: 1. rice. 2. kung pao chicken. 3) Noodles."
    assert plain_sentences(text, split_sentences(text)) == [
        "Ceinfyn (c. 990) was a nobleman.",
        "Dishes: 1. rice.",
        "kung pao chicken.",
        "Noodles.",
    ]
    assert plain("45) that introduced changes.", starts_line=False) == "45) that introduced changes."
    assert plain("3) add a belt", starts_line=True) == "add a belt"
