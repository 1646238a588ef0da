from engram.extraction.verbatim import set_aside


def test_quotations_and_fillers_are_set_aside_and_restored() -> None:
    text = 'You know, I loved "Sweet Child O\' Mine" and “My Sister, the Serial Killer”, you see.'
    kept = set_aside(text)
    assert '"' not in kept.masked and "“" not in kept.masked and "know" not in kept.masked
    assert kept.parts == ('"Sweet Child O\' Mine"', "“My Sister, the Serial Killer”", "You know", "you see")
    assert kept.restore(kept.masked) == text
    assert kept.restore(kept.masked.replace("I loved", "Ann loved")) == text.replace("I loved", "Ann loved")


def test_a_filler_is_only_a_filler_beside_a_comma() -> None:
    # "you know" that knows something, or "I mean" that means something, is a statement to rewrite.
    for text in ("Do you know where I left my keys?", "I mean it.", "You know what I mean"):
        assert set_aside(text).parts == ()
    assert set_aside("It is hard, you know? I mean, who would not.").parts == ("you know", "I mean")


def test_an_unpaired_quote_or_a_quotation_across_lines_is_not_a_quotation() -> None:
    assert set_aside('I said "hi and left').parts == ()
    assert set_aside('I wrote "one\ntwo" down').parts == ()
    assert set_aside('"' + "x" * 300 + '"').parts == ()


def test_text_holding_marker_characters_already_is_left_as_it_is() -> None:
    kept = set_aside('\ue000 and "a quote"')
    assert kept.parts == () and kept.masked == '\ue000 and "a quote"'
