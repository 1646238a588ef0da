"""The readings recall takes from a query's wording (graph/recall/query.py), table-driven."""

from __future__ import annotations

import pytest

from graph.recall.models import MemoryType
from graph.recall.query import (
    QuestionReader,
    asks_for_state,
    memory_types,
    name_forms,
    named_participants,
    names_used,
    persons_meant,
    without_names,
)

EPISODIC, SEMANTIC, PROCEDURAL = MemoryType.EPISODIC, MemoryType.SEMANTIC, MemoryType.PROCEDURAL
U, A = "User", "Assistant"

# (query, asker, addressee) -> (the memory kind first wanted, asks for a state, the speakers its pronouns mean)
READINGS: list[tuple[str, str | None, str | None, MemoryType, bool, list[str]]] = [
    # how-to questions want procedures
    ("How do I make a cup of tea?", U, A, PROCEDURAL, False, [U]),
    ("how to reset the router", U, A, PROCEDURAL, False, []),
    ("  How can we fix the sink?", U, A, PROCEDURAL, False, []),
    ("What's the best way to learn Spanish?", U, A, PROCEDURAL, False, []),
    ("What is the way to the station?", U, A, PROCEDURAL, False, []),
    ("What are the steps to file my taxes?", U, A, PROCEDURAL, False, [U]),
    ("Steps to bake bread", U, A, PROCEDURAL, False, []),
    # questions about what was said want the episodes
    ("What did you say about the hotel?", U, A, EPISODIC, False, [A]),
    ("What did I tell you about my sister?", U, A, EPISODIC, False, [U, A]),
    ("In our previous conversation, what did we discuss?", U, A, EPISODIC, False, []),  # a talk, not a state
    ("Did we talk about Lisbon?", U, A, EPISODIC, False, []),
    ("What have I mentioned about knitting?", U, A, EPISODIC, False, [U]),
    ("Tell me about yourself", U, A, EPISODIC, False, [U, A]),
    # questions about a state
    ("Who was my previous tutor?", U, A, SEMANTIC, True, [U]),
    ("Who did I work for previously?", U, A, SEMANTIC, True, [U]),
    ("What lens did I buy most recently?", U, A, SEMANTIC, True, [U]),
    ("What is my current job?", U, A, SEMANTIC, True, [U]),
    ("Where do I live now?", U, A, SEMANTIC, True, [U]),
    ("Do I still play tennis these days?", U, A, SEMANTIC, True, [U]),
    ("Is Alice busy at the moment?", U, A, SEMANTIC, True, []),
    ("Which is the latest model?", U, A, SEMANTIC, True, []),
    ("Does she play tennis anymore?", U, A, SEMANTIC, True, []),
    # knowledge, no state
    ("Items in mind: it is youth music", U, A, SEMANTIC, False, []),  # "It", "Items", "mind": no pronoun
    ("What happened in Nowhereville?", U, A, SEMANTIC, False, []),  # "now" inside a word
    ("How long did the Nowhereville trip take?", U, A, SEMANTIC, False, []),  # "how long": no how-to
    ("What did Melanie paint?", U, A, SEMANTIC, False, []),
    ("Which hotel did you recommend to me?", U, A, SEMANTIC, False, [U, A]),
    ("I'm planning a trip, any tips?", U, A, SEMANTIC, False, [U]),
    # no asker or addressee: nobody is meant
    ("What is the name of my cat?", None, None, SEMANTIC, False, []),
    ("What did you recommend?", U, None, SEMANTIC, False, []),
    ("What do you know about mine?", None, A, SEMANTIC, False, [A]),
]


@pytest.mark.parametrize(("query", "asker", "addressee", "first", "state", "meant"), READINGS)
def test_the_readings_of_a_query(
    query: str, asker: str | None, addressee: str | None, first: MemoryType, state: bool, meant: list[str]
) -> None:
    assert memory_types(query)[0] is first
    assert asks_for_state(query) is state
    assert persons_meant(query, asker, addressee) == meant


@pytest.mark.parametrize(
    ("query", "kinds"),
    [
        ("How do I make a cup of tea?", [PROCEDURAL, SEMANTIC]),
        ("What did you say about the hotel?", [EPISODIC, SEMANTIC, PROCEDURAL]),
        ("Where does Alice live?", [SEMANTIC, EPISODIC, PROCEDURAL]),
    ],
)
def test_every_kind_a_query_needs_most_wanted_first(query: str, kinds: list[MemoryType]) -> None:
    assert memory_types(query) == kinds


SPEAKERS = {"Alice", "Bob", "Jon Snow", "Mary-Ann", "", "assistant"}

# query -> (the speakers it names, its content without their names)
NAMES: list[tuple[str, list[str], str]] = [
    ("What does Bob do for work?", ["Bob"], "What does do for work?"),
    ("Where did Alice's dog go?", ["Alice"], "Where did dog go?"),
    ("Alice\u2019s cat", ["Alice"], "cat"),  # a typographic apostrophe
    ("Did Jon and Alice meet?", ["Alice", "Jon Snow"], "Did and meet?"),  # any part of a name
    ("Where is Jon Snow's sword?", ["Jon Snow"], "Where is sword?"),
    ("Snow in Berlin", ["Jon Snow"], "in Berlin"),
    ("Did Mary-Ann call?", ["Mary-Ann"], "Did call?"),
    ("what does bob do", [], "what does bob do"),  # not capitalised: no name
    ("What did Bobby say?", [], "What did Bobby say?"),  # a word that only contains a name
    ("Who is Alice?", ["Alice"], ""),  # only stop words left
    ("Bob?", ["Bob"], ""),
]


@pytest.mark.parametrize(("query", "named", "content"), NAMES)
def test_the_participants_a_query_names_and_its_content_without_them(
    query: str, named: list[str], content: str
) -> None:
    assert named_participants(query, SPEAKERS) == named
    assert without_names(query, named) == content


def test_a_query_names_only_speakers_of_the_memory() -> None:
    assert named_participants("What does Bob do for work?", {"Alice"}) == []
    assert named_participants("What does Bob do for work?", set()) == []
    assert without_names("What does Bob do for work?", []) == "What does Bob do for work?"


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("When did I book the Airbnb in Sacramento?", [("Airbnb",), ("Sacramento",)]),
        ("What is Priya's favourite movie?", [("Priya",)]),
        ("Who became a parent first, Tom or Alex?", [("Tom",), ("Alex",)]),
        # A name of several words is one name, a sentence's first word joining it ("Chen" of "Chen Sisi").
        ("I dined with Chen Sisi. Chen Sisi laughed.", [("Chen", "Sisi")]),
        ("I moved to New York City in May.", [("New", "York", "City")]),
        # A sentence's first word is capitalised whatever it is, a quoted one too: alone it is no name.
        ("According to John, what did he read? Tell me.", [("John",)]),
        ('"Little Women" is about what?', [("Little", "Women")]),
        # Times are the `when` step's to read; "I" and stop words are no names.
        ("What did I do in December and on Fridays, and what did I tell Sam?", [("Sam",)]),
        ("I\u2019m a bit anxious about getting around Tokyo.", [("Tokyo",)]),
        ("where does alice live?", []),
        # "Dr." ends what looks like a sentence: the word after it opens one; two letters are no name.
        ("Would Caroline have Dr. Seuss books on her TV shelf?", [("Caroline",)]),
    ],
)
def test_the_names_a_query_uses(query: str, names: list[tuple[str, ...]]) -> None:
    assert names_used(query) == names


def test_a_places_adjectives_are_forms_of_its_name() -> None:
    assert {"hawaii", "hawaiian"} <= set(name_forms("Hawaii"))
    assert {"italian"} <= set(name_forms("Italy")) and {"mexican"} <= set(name_forms("Mexico"))
    assert {"korean"} <= set(name_forms("Korea")) and {"japanese"} <= set(name_forms("Japan"))
    assert {"chinese"} <= set(name_forms("China"))
    assert name_forms("Jon")[0] == "jon" and "jons" not in name_forms("Jon")  # no plural: "Jeans" is no Jean


QUESTIONS = QuestionReader()


@pytest.mark.parametrize(
    ("query", "earlier"),
    [
        ("Where did Dana live before Berlin?", True),
        ("Where did Dana live before she moved to Berlin?", True),
        ("Which city was John in before traveling to Chicago?", True),
        ("Which phone did Priya have prior to the Pixel?", True),
        ("What car did I use to drive?", True),
        ("What activity did Caroline used to do with her dad?", True),
        ("What was Sam's old address?", True),
        ("What was my previous job?", True),
        ("Where did Ana work previously?", True),
        ("Where does Dana live?", False),
        ("What did we say in our previous conversation?", False),
        # The same words in other roles: a date, an age, a thing's own age, "use" with an object of its own
        ("What did Maria do the week before August 3, 2023?", False),
        ("Where was Tim in the week before 16 November 2023?", False),
        ("What is the name of John's one-year-old child?", False),
        ("How old is Caroline?", False),
        ("What did Joanna find in old notebooks last week?", False),
        ("What ingredient did Nate use to make the ice cream lactose-free?", False),
        ("What is flour used to make?", False),
        ("How many days before I bought the bike did I move?", False),
        ("Where did I live two years before moving to Berlin?", True),
        ("Which technique does Tim use to prepare for exams?", False),
        ("What technique is Audrey using to discipline her dogs?", False),
    ],
)
def test_asks_for_earlier_state(query: str, earlier: bool) -> None:
    assert QUESTIONS.asks_for_earlier_state(query) is earlier
