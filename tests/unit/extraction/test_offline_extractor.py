from datetime import UTC, datetime

from engram.extraction.base import EpisodeContext
from engram.extraction.offline import OfflineExtractor
from engram.extraction.sentences import split_sentences

WHEN = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def _episode(text: str, caption: str = "") -> EpisodeContext:
    return EpisodeContext("ep1", text, "Caroline", "Melanie", WHEN, caption, frozenset({"Caroline", "Melanie"}))


def test_statement_becomes_a_self_contained_dated_proposition() -> None:
    (draft,) = OfflineExtractor().extract([_episode("Hey Mel! I went to a LGBTQ support group yesterday.")])
    assert draft.text == "Caroline went to a LGBTQ support group yesterday (7 May 2023)."
    assert draft.valid_from == datetime(2023, 5, 7, tzinfo=UTC)
    assert draft.episode_ids == ["ep1"]
    assert "LGBTQ support group" in draft.concept_phrases


def test_greetings_yield_nothing() -> None:
    assert OfflineExtractor().extract([_episode("Hey Mel! Good to see you! Thanks!")]) == []


def test_shared_image_is_a_proposition_of_its_own() -> None:
    drafts = OfflineExtractor().extract([_episode("Look at this!", caption="a photo of a dog on a beach")])
    assert [d.text for d in drafts] == ["Caroline shared an image: a photo of a dog on a beach."]


def test_statement_without_a_person_keeps_its_speaker() -> None:
    (draft,) = OfflineExtractor().extract([_episode("The transgender stories were so inspiring!")])
    assert draft.text == "Caroline said: The transgender stories were so inspiring!"


def test_the_memorys_own_user_is_not_reported_as_a_speaker() -> None:
    """`remember` without a speaker: the user (an app's id, "user-amber") says it in their own memory; a statement
    naming someone else reads as it was said, not "user-amber said: ..."."""
    episode = EpisodeContext("ep1", "Pavla prefers aisle seats.", "user-amber", occurred_at=WHEN, user="user-amber")
    (draft,) = OfflineExtractor().extract([episode])
    assert draft.text == "Pavla prefers aisle seats."


def test_an_initial_or_a_title_before_a_name_ends_no_statement() -> None:
    drafts = OfflineExtractor().extract(
        [_episode("J.K. Rowling inspires me so much. Dr. Seuss books are for my kids. I read George R. R. Martin too.")]
    )
    assert [d.text for d in drafts] == [
        "J.K. Rowling inspires Caroline so much.",
        "Dr. Seuss books are for Caroline's kids.",
        "Caroline reads George R. R. Martin too.",
    ]


def test_a_statement_names_the_person_its_pronoun_means() -> None:
    drafts = OfflineExtractor().extract([_episode("I made a blue bowl for my sister Ana. She is moving to Berlin.")])
    assert [d.text for d in drafts] == [
        "Caroline made a blue bowl for Caroline's sister Ana.",
        "Caroline said: Ana is moving to Berlin.",
    ]


def test_a_sentence_that_ends_in_i_still_ends() -> None:
    assert split_sentences("I should ask, shouldn't I. That seems right.") == [
        "I should ask, shouldn't I.",
        "That seems right.",
    ]


def test_extraction_is_deterministic() -> None:
    episode = _episode("I'm keen on counseling. My friends support me a lot in this journey.")
    assert OfflineExtractor().extract([episode]) == OfflineExtractor().extract([episode])


def test_a_document_passage_names_its_title_where_it_said_it() -> None:
    passage = "The Exies are an American rock band. Their debut album appeared in 2000. The band toured with Creed."
    drafts = OfflineExtractor().extract([EpisodeContext("ep2", passage, title="The Exies (band)")])
    assert [d.text for d in drafts][1:] == [
        "The Exies' debut album appeared in 2000.",
        "The Exies toured with Creed.",
    ]
    assert drafts[2].subject == "The Exies"


def test_a_statement_drops_its_opening_discourse_markers_and_its_verb_agrees_with_the_name() -> None:
    # Issue 44: "Yes, Priya build ..." and "remind Tom if Tom forget it".
    chat = [
        EpisodeContext("p1", "Yes, I build the billing service every Friday.", "Priya", "Tom", WHEN, "", frozenset()),
        EpisodeContext("t1", "Please remind me if I forget the deploy.", "Tom", "Priya", WHEN, "", frozenset()),
        EpisodeContext("p2", "Oh wow, haha! I usually watch the logs.", "Priya", "Tom", WHEN, "", frozenset()),
        EpisodeContext("p3", "No, I don't run the tests on staging.", "Priya", "Tom", WHEN, "", frozenset()),
    ]
    assert [d.text for d in OfflineExtractor().extract(chat)] == [
        "Priya builds the billing service every Friday.",
        "Please remind Tom if Tom forgets the deploy.",
        "Priya usually watches the logs.",
        "Priya doesn't run the tests on staging.",
    ]
