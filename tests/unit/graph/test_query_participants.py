from graph.recall.query import named_participants, persons_meant, without_names

SPEAKERS = {"Melanie", "Caroline", "Jon Snow", ""}


def test_a_participant_is_named_by_any_capitalised_part_of_their_name_or_its_possessive() -> None:
    assert named_participants("What activities does Melanie partake in?", SPEAKERS) == ["Melanie"]
    assert named_participants("What are Melanie's pets' names?", SPEAKERS) == ["Melanie"]
    assert named_participants("What did Jon and Caroline bake?", SPEAKERS) == ["Caroline", "Jon Snow"]
    assert named_participants("What did Caroline\u2019s mother say?", SPEAKERS) == ["Caroline"]


def test_words_that_only_contain_a_name_or_are_not_capitalised_name_nobody() -> None:
    assert named_participants("What did Mel paint?", SPEAKERS) == []
    assert named_participants("Did melanie and Carolines go?", SPEAKERS) == []
    assert named_participants("What did we talk about?", SPEAKERS) == []
    # A lone initial or a one-letter name is too ambiguous to be a name in a question.
    assert named_participants("What did I say about A?", {"I", "A"}) == []


def test_the_content_of_a_query_is_what_is_left_without_the_names() -> None:
    assert without_names("What activities does Melanie partake in?", ["Melanie"]) == "What activities does partake in?"
    assert without_names("What are Melanie's pets' names?", ["Melanie"]) == "What are pets' names?"
    assert without_names("Where did Jon Snow and Caroline meet?", ["Caroline", "Jon Snow"]) == "Where did and meet?"


def test_a_query_that_is_only_names_has_no_content() -> None:
    assert without_names("Caroline?", ["Caroline"]) == ""
    assert without_names("What does Melanie do for work?", ["Melanie"]) == "What does do for work?"
    assert without_names("Who is Melanie?", ["Melanie"]) == ""
    assert without_names("What did Melanie and Caroline do?", ["Caroline", "Melanie"]) == ""


def test_first_person_words_mean_the_asker_and_second_person_words_the_addressee() -> None:
    assert persons_meant("What is the name of my cat?", "User", "Assistant") == ["User"]
    assert persons_meant("How old was I when Alex was born?", "User", "Assistant") == ["User"]
    assert persons_meant("I\u2019m planning a trip, any tips?", "User", "Assistant") == ["User"]
    assert persons_meant("Which hotel did you recommend to me?", "User", "Assistant") == ["User", "Assistant"]
    assert persons_meant("What did your last answer say?", "User", "Assistant") == ["Assistant"]


def test_a_query_in_the_third_person_or_without_an_asker_means_nobody() -> None:
    assert persons_meant("What did Melanie paint?", "User", "Assistant") == []
    # "It", "Mind", "Items" and "Yours" inside other words are not pronouns; a lower-case "i" is not "I".
    assert persons_meant("Items in mind: it is youth music", "User", "Assistant") == []
    assert persons_meant("What is the name of my cat?", None, None) == []
    assert persons_meant("What did you recommend?", "User", None) == []
