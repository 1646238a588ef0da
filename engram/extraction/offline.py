"""The offline proposition extractor: rules, no generative model.

Each statement-like sentence of an episode becomes a self-contained proposition: persons resolved to names,
relative times to absolute dates (also kept as `valid_from`), concept candidates from keyphrases. A shared
image becomes a proposition of its own. Greetings and fillers yield nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, date, datetime

from engram.extraction.base import DraftProposition, EpisodeContext
from engram.extraction.coreference import ThirdPersons, resolve_persons
from engram.extraction.keyphrases import STOPWORDS, extract_keyphrases
from engram.extraction.sentences import split_sentences
from engram.extraction.subject_reference import SubjectReferences, subject_name
from engram.extraction.temporal import resolve_relative_times
from engram.extraction.wordlists import load_wordlist
from engram.facts.clauses import Clause, clauses
from engram.parsing import MAX_PARSE_CHARS, Parser

MIN_CONTENT_WORDS = 2
# How far a proposition's wording asserts what it says (recall's ranking and the reliability of conflicting claims
# weigh it); set by hand, not tuned on any data (docs/tuning.md).
STATEMENT_CONFIDENCE = 0.7  # a sentence stated as fact: the default of every proposition
IMAGE_CONFIDENCE = 0.6  # an image's caption is a model's description of what was shared, not the speaker's words
QUESTION_CONFIDENCE = 0.4  # a question asserts nothing: it records what was asked about


# "Yes, ", "Oh wow! ": words that open an utterance and say nothing of what it states.
_MARKERS = load_wordlist("discourse_markers")
_OPENING_WORD = re.compile(r"\s*([A-Za-z]+)(\s*[,!]+\s*|\s+)")


def drop_discourse_markers(sentence: str) -> str:
    """The sentence without the discourse markers it opens with ("Yes, I build it" -> "I build it"), where a comma
    or an exclamation mark closes them; unchanged when nothing would be left."""
    position = cut = 0
    while (match := _OPENING_WORD.match(sentence, position)) and match.group(1).lower() in _MARKERS:
        position = match.end()
        if match.group(2).strip():
            cut = position
    rest = sentence[cut:]
    if not cut or not rest.strip():
        return sentence
    return rest[0].upper() + rest[1:]


def content_words(text: str) -> int:
    return sum(1 for w in re.findall(r"[A-Za-z']+", text.lower()) if w not in STOPWORDS and len(w) > 2)


class OfflineExtractor:
    """Rule-based extraction; deterministic, so a redelivered job extracts exactly the same propositions."""

    def __init__(self, max_concepts: int = 5, parser: Parser | None = None) -> None:
        self._max_concepts = max_concepts
        self._parser = parser or Parser()

    def extract(self, episodes: Sequence[EpisodeContext]) -> list[DraftProposition]:
        drafts: list[DraftProposition] = []
        for episode in episodes:
            drafts.extend(self._from_episode(episode))
        return drafts

    def _from_episode(self, episode: EpisodeContext) -> list[DraftProposition]:
        drafts = []
        names = frozenset(episode.participants | {episode.speaker, episode.addressee} - {""})
        sentences = split_sentences(episode.text)
        subject = SubjectReferences.of_passage(episode.title, sentences) if episode.title else None
        # In an utterance a pronoun means someone it introduced ("my sister Ana. She ..."); in a document, the
        # article's subject (SubjectReferences).
        people = ThirdPersons()
        for sentence, statement in zip(sentences, self._statements(sentences), strict=True):
            for told, clause in statement:
                drafts.extend(self._from_statement(episode, names, subject, people, told, clause))
            people.learn(sentence)
        if episode.image_caption:
            who = episode.speaker or "The source"
            caption = episode.image_caption.rstrip(".")
            drafts.append(self._draft(f"{who} shared an image: {caption}.", episode, names, None, IMAGE_CONFIDENCE))
        return drafts

    def _statements(self, sentences: list[str]) -> list[list[tuple[str, Clause | None]]]:
        """Each sentence's statements: its atomic facts where its parse gives clauses (engram/facts/clauses.py), else
        the sentence as told. A question asserts no fact, and a sentence too long to parse stays whole."""
        stated = [drop_discourse_markers(s) for s in sentences]
        parsed = [i for i, s in enumerate(stated) if not s.rstrip().endswith("?") and len(s) <= MAX_PARSE_CHARS]
        docs = dict(zip(parsed, self._parser.parse_many(stated[i] for i in parsed), strict=True))
        out: list[list[tuple[str, Clause | None]]] = []
        for i, text in enumerate(stated):
            told = clauses(docs[i]) if i in docs else []
            facts = [c for c in told if c.is_fact and c.personal]
            if len(told) > 1 and len(facts) < len(told):
                # Split only into facts: "I went to a support group yesterday and it was so powerful" stays one
                # statement (the fact of its first clause), its second clause says nothing alone.
                out.append([(text, facts[0] if facts else None)])
            else:
                out.append([(c.text, c) for c in told] or [(text, None)])
        return out

    def _from_statement(
        self,
        episode: EpisodeContext,
        names: frozenset[str],
        subject: SubjectReferences | None,
        people: ThirdPersons,
        sentence: str,
        clause: Clause | None,
    ) -> list[DraftProposition]:
        drafts = []
        for stated in (sentence,):
            text = subject.resolve(stated) if subject else people.resolve(stated)
            if content_words(sentence) < MIN_CONTENT_WORDS:
                continue
            is_question = sentence.rstrip().endswith("?")
            text = resolve_persons(text, episode.speaker, episode.addressee or None)
            resolution = resolve_relative_times(text, episode.occurred_at)
            text = resolution.text
            if is_question and episode.speaker:
                text = f"{episode.speaker} asked: {text}"
            elif episode.speaker and episode.speaker != episode.user and not any(name in text for name in names):
                text = f"{episode.speaker} said: {text}"  # keep who stated it: the text must stand alone
            confidence = QUESTION_CONFIDENCE if is_question else STATEMENT_CONFIDENCE
            draft = self._draft(text, episode, names, resolution.earliest, confidence)
            if clause is not None and clause.is_fact:
                _as_fact(draft, clause, episode.speaker, text)
            drafts.append(draft)
        return drafts

    def _draft(
        self, text: str, episode: EpisodeContext, names: frozenset[str], day: date | None, confidence: float
    ) -> DraftProposition:
        valid_from = episode.occurred_at
        if day is not None:
            valid_from = datetime(day.year, day.month, day.day, tzinfo=UTC)
        phrases = [k.display for k in extract_keyphrases(text, names, limit=self._max_concepts)]
        subject = next((n for n in (episode.speaker, subject_name(episode.title)) if n and text.startswith(n)), "")
        return DraftProposition(
            text=text,
            episode_ids=[episode.episode_id],
            valid_from=valid_from,
            concept_phrases=phrases,
            subject=subject,
            confidence=confidence,
        )


_GROUP_PRONOUNS = frozenset({"we", "us", "our", "ours"})


def _as_fact(draft: DraftProposition, clause: Clause, teller: str, text: str) -> None:
    """The draft's fact fields from its clause: whose attribute (the teller for I/my/we, a name as written, the person
    a pronoun was resolved to), which, what value, what it ends."""
    if not clause.personal:
        return  # "My neighbour's dog barked": not the teller's attribute, nor a named person's
    who = (clause.owner or clause.subject).strip()
    if clause.first_person or who.lower() in _GROUP_PRONOUNS:
        subject = teller
    elif who[:1].isupper() and who.lower() not in STOPWORDS:
        subject = re.sub(r"['\u2019]s?$", "", who)
    else:
        subject = draft.subject  # a pronoun the resolution named at the text's start, else no one
    if not subject:
        return
    draft.subject = subject
    draft.predicate = clause.predicate
    draft.object = clause.value
    draft.value_type = clause.value_type
    draft.frame = clause.frame
    draft.event = clause.event
    draft.polarity = clause.polarity
    draft.ends = list(clause.ends)
    draft.adds = clause.adds
    draft.renews = clause.renews
