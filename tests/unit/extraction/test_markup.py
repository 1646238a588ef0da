from engram.extraction.markup import plain


def test_a_markdown_list_item_reads_as_a_sentence() -> None:
    assert plain("Tips:\n\n1. **Cuff or roll**: Cuff the *hem* to show off your shoes.") == (
        "Tips: Cuff or roll: Cuff the hem to show off your shoes."
    )
    assert plain("### Ladybugs\n- Release them at __dusk__") == "Ladybugs Release them at dusk"


def test_what_only_looks_like_markup_stays() -> None:
    for text in ("5 * 3 = 15 and 2*4 is 8", "-5 degrees today", "my_file_name.txt", "1990. That was the year."):
        assert plain(text) == text
