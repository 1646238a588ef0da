from engram.extraction.sentences import split_sentences
from engram.extraction.subject_reference import SubjectReferences, subject_name


def _resolve(title: str, passage: str) -> list[str]:
    sentences = split_sentences(passage)
    references = SubjectReferences.of_passage(title, sentences)
    return [references.resolve(s) for s in sentences]


def test_the_title_drops_its_disambiguator() -> None:
    assert subject_name("Lilu (mythology)") == "Lilu"
    assert subject_name("Heat (1995 film)") == "Heat"
    assert subject_name("Journal of Mathematical Physics") == "Journal of Mathematical Physics"


def test_sentence_initial_pronouns_become_the_subject() -> None:
    assert _resolve(
        "Maha Sona",
        "Maha Sona is a demon in Sinhalese folklore. It is the most feared demon in Sri Lanka. "
        "Its name means the greatest demon.",
    )[1:] == ["Maha Sona is the most feared demon in Sri Lanka.", "Maha Sona's name means the greatest demon."]


def test_a_person_and_a_leading_phrase() -> None:
    assert _resolve(
        "Mark Wahlberg (actor)",
        "Mark Wahlberg is an American actor. In the 2010s, he starred in The Other Guys. His brother is Donnie.",
    )[1:] == ["In the 2010s, Mark Wahlberg starred in The Other Guys.", "Mark Wahlberg's brother is Donnie."]


def test_a_definite_description_of_the_category_or_title_head_becomes_the_subject() -> None:
    assert _resolve(
        "Arctic Monkeys",
        "Arctic Monkeys are an English rock band formed in Sheffield in 2002. The band released five albums. "
        "The rock band toured widely. The singer left.",
    )[1:] == ["Arctic Monkeys released five albums.", "Arctic Monkeys toured widely.", "The singer left."]
    assert _resolve("Journal of Mathematical Physics", "It is monthly. The journal was first published in 1960.")[
        1
    ] == ("Journal of Mathematical Physics was first published in 1960.")
    assert _resolve("Heat (1995 film)", "Heat stars Al Pacino. The film was a success.")[1] == "Heat was a success."


def test_a_description_naming_something_else_is_left_alone() -> None:
    # "The band Oasis ..." names another band; "The game" is not what the title or its definition calls it.
    assert _resolve("Blur (band)", "The band Oasis rivalled them. The game was lost.") == [
        "The band Oasis rivalled them.",
        "The game was lost.",
    ]


def test_only_the_pronoun_family_the_passage_first_uses_is_the_subject() -> None:
    # In an article about a film, "It" is the film; a later "He" is one of its characters.
    assert _resolve("Spider Baby", "It stars Lon Chaney. He plays Bruno, the chauffeur.") == [
        "Spider Baby stars Lon Chaney.",
        "He plays Bruno, the chauffeur.",
    ]


def test_they_needs_a_plural_subject() -> None:
    assert _resolve("Botany", "Botany is the science of plants. They were grown in gardens.")[1] == (
        "They were grown in gardens."
    )
    assert _resolve("Tat Sae Waterfalls", "They are located southeast of Luang Prabang.") == [
        "Tat Sae Waterfalls are located southeast of Luang Prabang."
    ]


def test_expletive_it_is_left_alone() -> None:
    passage = "It is believed that the demon kills people. It was not until 1990 that it was seen."
    assert _resolve("Maha Sona", passage) == split_sentences(passage)


def test_mid_sentence_pronouns_are_left_alone() -> None:
    assert _resolve("Iván (singer)", "He had hits before his career was interrupted.") == [
        "Iván had hits before his career was interrupted."
    ]


def test_names_are_inserted_literally_whatever_their_characters() -> None:
    assert _resolve("A\\1 \\g<0>", "It is here.") == ["A\\1 \\g<0> is here."]


def test_a_sentence_that_names_the_subject_is_left_alone() -> None:
    passage = "The Journal of Psychotherapy Integration is a peer-reviewed journal. The journal of record is Nature."
    assert _resolve("Journal of Psychotherapy Integration", passage) == split_sentences(passage)


def test_a_leading_phrase_is_adverbial_not_a_subject_of_its_own() -> None:
    assert _resolve("2017 World Series", "The 113th edition of the series, it was played in October.") == [
        "The 113th edition of the series, it was played in October."
    ]
    assert _resolve("KWFS-FM", "Founded in 1990, it broadcasts on 102.3 MHz.") == [
        "Founded in 1990, KWFS-FM broadcasts on 102.3 MHz."
    ]
