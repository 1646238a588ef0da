from engram.extraction.coreference import ThirdPersons, resolve_persons


def test_first_person_becomes_the_speaker() -> None:
    out = resolve_persons("I went to a LGBTQ support group and my mom came with me.", "Caroline", "Melanie")
    assert out == "Caroline went to a LGBTQ support group and Caroline's mom came with Caroline."


def test_second_person_becomes_the_addressee() -> None:
    out = resolve_persons("I love your painting, you are so talented!", "Caroline", "Melanie")
    assert out == "Caroline loves Melanie's painting, Melanie is so talented!"


def test_contractions_are_expanded_with_agreement() -> None:
    assert (
        resolve_persons("I'm swamped and I've been busy", "Melanie", "Caroline")
        == "Melanie is swamped and Melanie has been busy"
    )


def test_unknown_addressee_leaves_you_alone() -> None:
    assert resolve_persons("Did you see it?", "Ann", None) == "Did you see it?"


def test_questions_keep_agreement_when_the_verb_comes_first() -> None:
    assert resolve_persons("Are you making bowls?", "Leo", "Maya") == "Is Maya making bowls?"
    assert resolve_persons("Do you still paint? Have you seen it?", "Leo", "Maya") == (
        "Does Maya still paint? Has Maya seen it?"
    )
    assert resolve_persons("Am I late? Were you there?", "Leo", "Maya") == "Is Leo late? Was Maya there?"
    assert resolve_persons("so do you", "Leo", None) == "so do you"  # no addressee: untouched


def test_names_are_inserted_literally_whatever_their_characters() -> None:
    # Replacement templates would read these as group references (re.error, or the matched text spliced in).
    assert resolve_persons("I'm here and my cat is mine.", "A\\1", None) == "A\\1 is here and A\\1's cat is A\\1's."
    assert resolve_persons("Your turn, you know.", "Ann", "\\g<0>") == "\\g<0>'s turn, \\g<0> know."


def test_a_person_an_utterance_introduced_is_named_where_a_pronoun_meant_them() -> None:
    people = ThirdPersons()
    people.learn("Yes, I made a blue bowl for my sister Ana and a mug for my brother Tom.")
    assert people.resolve("She is moving to Berlin, and he hates his job.") == (
        "Ana is moving to Berlin, and Tom hates Tom's job."
    )
    assert people.resolve("I will visit her in June and bring her bowl; I told her everything.") == (
        "I will visit Ana in June and bring Ana's bowl; I told Ana everything."
    )


def test_a_pronoun_two_people_may_mean_stays() -> None:
    people = ThirdPersons()
    people.learn("My friend Jo came with my sister Ana.")  # a friend may be either
    assert people.resolve("She loved the show.") == "She loved the show."
    assert people.resolve("He loved the show.") == "Jo loved the show."
    assert ThirdPersons().resolve("She loved the show.") == "She loved the show."  # nobody introduced


def test_a_present_verb_after_i_agrees_with_the_name_whatever_the_verb() -> None:
    # Not only the verbs of a list: "I build", "I forget", "I bring" (issue 44: "Priya build", "Tom forget").
    assert resolve_persons("I build it, I forget it, I bring it, I fix it, I carry it", "Ana", None) == (
        "Ana builds it, Ana forgets it, Ana brings it, Ana fixes it, Ana carries it"
    )
    assert resolve_persons("I even need it and I sometimes miss it", "Ana", None) == (
        "Ana even needs it and Ana sometimes misses it"
    )
    assert resolve_persons("I don't know and I haven't asked", "Ana", None) == "Ana doesn't know and Ana hasn't asked"


def test_what_already_agrees_keeps_its_form() -> None:
    # Past forms, modals, a negated auxiliary, a question's auxiliary and a compound subject stay as said.
    assert resolve_persons("I went, I painted, I can swim, I didn't stop", "Ana", None) == (
        "Ana went, Ana painted, Ana can swim, Ana didn't stop"
    )
    assert resolve_persons("Should I build it? Can I use yours?", "Leo", "Maya") == (
        "Should Leo build it? Can Leo use Maya's?"
    )
    assert resolve_persons("Tom and I live in Lisbon. My wife and I run a bakery.", "Ana", None) == (
        "Tom and Ana live in Lisbon. Ana's wife and Ana run a bakery."
    )
