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


def test_negations_and_common_verbs_agree_with_the_name() -> None:
    assert resolve_persons("I don't eat meat and I haven’t tried tofu. I recommend it.", "Leo", "Maya") == (
        "Leo doesn't eat meat and Leo hasn’t tried tofu. Leo recommends it."
    )
    assert resolve_persons("You don't cook? Don't you bake? Weren't you there?", "Leo", "Maya") == (
        "Maya doesn't cook? Doesn't Maya bake? Wasn't Maya there?"
    )
    # A word after "I" that is no verb there stays as it is; so do verbs already agreeing after a modal.
    assert resolve_persons("When I last swam, I can't say.", "Leo", None) == "When Leo last swam, Leo can't say."
    # After an auxiliary the verb keeps its form; a verb whose past is the same word is not made present.
    assert resolve_persons("Should I use it? Didn't I say so? I put it on yesterday.", "Leo", None) == (
        "Should Leo use it? Didn't Leo say so? Leo put it on yesterday."
    )


def test_names_are_inserted_literally_whatever_their_characters() -> None:
    # Replacement templates would read these as group references (re.error, or the matched text spliced in).
    assert resolve_persons("I'm here and my cat is mine.", "A\\1", None) == "A\\1 is here and A\\1's cat is A\\1's."
    assert resolve_persons("Your turn, you said.", "Ann", "\\g<0>") == "\\g<0>'s turn, \\g<0> said."


def test_quotations_and_fillers_keep_their_persons() -> None:
    # "I" in a quotation is whoever is quoted; a title is quoted as it is; "you know" addresses nobody.
    assert resolve_persons('I just mastered "Sweet Child O\' Mine" and I love it.', "Leo", "Maya") == (
        'Leo just mastered "Sweet Child O\' Mine" and Leo loves it.'
    )
    assert resolve_persons("You know, it's crazy how I love teaching him. I mean, he's 21.", "Leo", "Maya") == (
        "You know, it's crazy how Leo loves teaching him. I mean, he's 21."
    )
    assert resolve_persons("Try “My Sister, the Serial Killer”, you know?", "Leo", "Maya") == (
        "Try “My Sister, the Serial Killer”, you know?"
    )
    people = ThirdPersons()
    people.learn("My sister Ana loves music.")
    assert people.resolve('She played "She Loves You" for her friends.') == (
        'Ana played "She Loves You" for Ana\'s friends.'
    )


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
