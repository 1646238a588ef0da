"""A statement the parser cannot read stays an episode's text with no fact drawn from it (issue 64, bad input)."""

from __future__ import annotations

from datetime import UTC, datetime

from engram.extraction.base import EpisodeContext
from engram.extraction.offline import OfflineExtractor

EXTRACTOR = OfflineExtractor()


def drafts(text: str) -> list[tuple[str, str, list[str]]]:
    episode = EpisodeContext("e1", text, speaker="Lena", occurred_at=datetime(2026, 5, 1, tzinfo=UTC))
    return [(d.text, d.frame, d.ends) for d in EXTRACTOR.extract([episode])]


def test_another_language_and_symbols_give_no_fact() -> None:
    for text in ("Je suis allée au marché avec ma sœur hier matin.", "### @@@ ~~~ $$$ %%% ^^^ &&& ***", "🙂🙂🙂 🎉🎉"):
        assert all(frame == "" and not ends for _, frame, ends in drafts(text)), text


def test_a_twenty_thousand_word_sentence_is_kept_whole_without_facts() -> None:
    text = "I live in Porto and " + " and ".join(["I like the harbour"] * 5_000) + "."
    told = drafts(text)
    assert len(told) == 1 and told[0][1] == "" and told[0][0].startswith("Lena lives in Porto")


def test_a_fact_and_its_teller() -> None:
    ((text, frame, ends),) = drafts("Big news: I moved from Porto to Graz.")
    assert (text, frame, ends) == ("Lena moved from Porto to Graz.", "move to :thing", ["Porto"])
