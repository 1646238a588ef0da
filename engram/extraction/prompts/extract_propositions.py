"""Prompt and output schema for extracting propositions from one episode with a language model.

The schema is bounded (lengths and list sizes) so that, with whitespace pinned, a token budget of
`WORST_CASE_TOKENS` always lets constrained decoding finish a valid object.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from engram.extraction.base import EpisodeContext

MAX_PROPOSITIONS = 3
MAX_CONCEPTS = 3
TEXT_CHARS, SUBJECT_CHARS, CONCEPT_CHARS = 200, 40, 32
# Worst case: one token per character of every string plus the JSON syntax around them.
WORST_CASE_TOKENS = MAX_PROPOSITIONS * (TEXT_CHARS + SUBJECT_CHARS + MAX_CONCEPTS * (CONCEPT_CHARS + 4) + 48) + 32


class ExtractedFact(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: Annotated[str, Field(min_length=1, max_length=TEXT_CHARS)]
    subject: Annotated[str, Field(max_length=SUBJECT_CHARS)]
    concepts: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=CONCEPT_CHARS)]], Field(max_length=MAX_CONCEPTS)
    ]


class ExtractionOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    propositions: Annotated[list[ExtractedFact], Field(max_length=MAX_PROPOSITIONS)]


INSTRUCTIONS = """You turn one message of a conversation (or one passage of a document) into self-contained facts.
Rules:
- Each fact is one short sentence that is true on its own: replace I/me/my with the speaker's name and
  you/your with the addressee's name, and in a document he/she/it/they or "the film" meaning its title's subject
  with that name; write dates as absolute dates (the message was written on {date}).
- Skip greetings, thanks and small talk. Return an empty list when there is no fact.
- `subject` is who or what the fact is about; `concepts` are 1-3 short noun phrases (topics, people, places).
Answer with JSON only."""


def build_prompt(episode: EpisodeContext) -> str:
    date = episode.occurred_at.strftime("%d %B %Y") if episode.occurred_at else "an unknown date"
    who = f"Speaker: {episode.speaker}\n" if episode.speaker else ""
    to = f"Addressee: {episode.addressee}\n" if episode.addressee else ""
    image = f"Shared image: {episode.image_caption}\n" if episode.image_caption else ""
    title = f"Document title: {episode.title}\n" if episode.title else ""
    return f"{INSTRUCTIONS.format(date=date)}\n\n{title}{who}{to}{image}Message: {episode.text}\n\nJSON:"
