import pytest

from engram.extraction.keyphrases import FUNCTION_WORDS
from graph.recall.lucene import in_space, lucene_query, one_edit_apart


def test_content_words_or_ed_together() -> None:
    assert lucene_query("When did Caroline go to the LGBTQ support group?") == "caroline OR lgbtq OR support OR group"


@pytest.mark.parametrize(
    "text",
    [
        '"foo" OR *:* AND) ] \\ bar',
        "title:x^10 ~2 {a TO b} [c TO d] +must -not !bang /re/",
        "x && y || z",
        "NOT AND OR",
    ],
)
def test_metacharacters_and_keywords_never_reach_the_parser(text: str) -> None:
    query = lucene_query(text)
    terms = query.split(" OR ") if query else []
    assert all(term.isalnum() for term in terms)
    assert not {"and", "or", "not", "to"} & set(terms)


def test_nothing_searchable_gives_an_empty_query() -> None:
    assert lucene_query("?!* the a") == ""


def test_a_query_is_scoped_to_its_space_as_a_phrase() -> None:
    assert in_space("caroline OR group", "bench-locomo-conv-26") == (
        'space:"bench-locomo-conv-26" AND text:(caroline OR group)'
    )


def test_a_space_name_cannot_close_the_phrase() -> None:
    scoped = in_space("x", 'a" OR *:* OR "b')
    assert scoped.count('"') == 2
    assert "*" not in scoped
    assert scoped.count(":") == 2  # the two fields, nothing the name brought


def test_a_task_query_keeps_its_actions_and_states() -> None:
    # "cool", "put" and "look" make poor concept keys, but they are what tells one task from another.
    assert lucene_query("put a cool mug in shelf.") == "mug OR shelf"
    assert lucene_query("put a cool mug in shelf.", FUNCTION_WORDS) == "put OR cool OR mug OR shelf"
    assert lucene_query("look at the book under the desklamp", FUNCTION_WORDS) == "look OR book OR desklamp"


def test_a_query_can_read_another_field() -> None:
    assert in_space("mug OR shelf", "procs", "terms") == 'space:"procs" AND terms:(mug OR shelf)'


@pytest.mark.parametrize(
    ("a", "b", "near"),
    [
        ("brittish", "british", True),  # a letter doubled
        ("british", "brittish", True),
        ("sacramento", "sacramentos", True),
        ("seattle", "settle", True),
        ("recieve", "receive", True),  # neighbours swapped
        ("barcelona", "barcelona", True),
        ("brrittissh", "british", False),
        ("seattle", "saddle", False),
        ("recieve", "reveice", False),
        ("abc", "abcde", False),
    ],
)
def test_one_edit_apart_as_lucenes_fuzzy_term(a: str, b: str, near: bool) -> None:
    assert one_edit_apart(a, b) is near
