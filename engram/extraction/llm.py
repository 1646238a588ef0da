"""Proposition extraction with a language model through Outlines, constrained to `ExtractionOutput`.

Two backends behind one interface: a local transformers model (steerable: the JSON constraint is applied
as a logits processor) or an OpenAI-compatible server such as vLLM (the schema travels with the request).
Whatever the backend, the output is validated; an invalid one raises instead of being half-used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol

from engram.extraction.base import DraftProposition, EpisodeContext
from engram.extraction.prompts.extract_propositions import WORST_CASE_TOKENS, ExtractionOutput, build_prompt
from engram.extraction.temporal import resolve_relative_times

if TYPE_CHECKING:
    from engram.extraction.factory import ExtractionSettings

GenerateFn = Callable[[str, int], str]


class KeyNamer(Protocol):
    """Maps a fact's concept phrases to keys of the space's schema (new keys only through accommodation)."""

    def name(self, space: str, fact: str, phrases: Sequence[str]) -> list[str]: ...


class LLMExtractor:
    def __init__(
        self, generate: GenerateFn, max_new_tokens: int = WORST_CASE_TOKENS, key_namer: KeyNamer | None = None
    ) -> None:
        # Fewer tokens than the schema's worst case could cut a valid prefix short of a complete object.
        self._generate = generate
        self._max_new_tokens = max(max_new_tokens, WORST_CASE_TOKENS)
        self._key_namer = key_namer

    def _concepts(self, episode: EpisodeContext, fact: str, phrases: Sequence[str]) -> list[str]:
        """The fact's concepts as schema keys when a key namer and the space are known, else the raw phrases."""
        if self._key_namer is None or not episode.space or not phrases:
            return list(dict.fromkeys(phrases))
        return self._key_namer.name(episode.space, fact, phrases)

    def extract_one(self, episode: EpisodeContext) -> ExtractionOutput:
        raw = self._generate(build_prompt(episode), self._max_new_tokens)
        return ExtractionOutput.model_validate_json(raw)

    def extract(self, episodes: Sequence[EpisodeContext]) -> list[DraftProposition]:
        drafts = []
        for episode in episodes:
            for fact in self.extract_one(episode).propositions:
                # The model is asked for absolute dates; resolve whatever relative ones remain anyway.
                resolution = resolve_relative_times(fact.text, episode.occurred_at)
                day = resolution.earliest
                valid_from = datetime(day.year, day.month, day.day, tzinfo=UTC) if day else episode.occurred_at
                drafts.append(
                    DraftProposition(
                        text=resolution.text,
                        episode_ids=[episode.episode_id],
                        valid_from=valid_from,
                        concept_phrases=self._concepts(episode, resolution.text, fact.concepts),
                        subject=fact.subject,
                    )
                )
        return drafts


def outlines_generate_fn(outlines_model: object, **generation_kwargs: object) -> GenerateFn:
    """A generate function over any Outlines model, compiled once for `ExtractionOutput`.

    Whitespace between JSON tokens is pinned to none: otherwise a model can spend its whole token budget
    on whitespace and the object is cut off before it is complete.
    """
    import outlines
    from outlines.types import JsonSchema

    schema = JsonSchema(ExtractionOutput.model_json_schema(), whitespace_pattern="")
    generator = outlines.Generator(outlines_model, schema)  # type: ignore[arg-type]

    def generate(prompt: str, max_new_tokens: int) -> str:
        return str(generator(prompt, max_new_tokens=max_new_tokens, **generation_kwargs))

    return generate


def load_transformers_model(path: str) -> object:
    """A local transformers model for Outlines (never downloads: `local_files_only`)."""
    import outlines
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(path, local_files_only=True)
    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    return outlines.from_transformers(model, tokenizer)  # type: ignore[arg-type]


def load_openai_model(base_url: str, model_name: str, api_key: str) -> object:
    """An OpenAI-compatible server (e.g. `vllm serve`), for structured outputs by JSON schema."""
    import openai
    import outlines

    return outlines.from_openai(openai.OpenAI(base_url=base_url, api_key=api_key), model_name)


def create_llm_extractor(settings: ExtractionSettings) -> LLMExtractor:
    from engram.extraction.base import ExtractorKind

    if settings.kind is not ExtractorKind.TRANSFORMERS:
        model = load_openai_model(settings.base_url, settings.model, settings.api_key)
        return LLMExtractor(outlines_generate_fn(model), settings.max_new_tokens)
    model = load_transformers_model(settings.model)
    # A local model is steerable: it also names concept keys under the schema's trie constraint.
    namer = create_key_namer(model) if settings.constrained_keys else None
    return LLMExtractor(outlines_generate_fn(model), settings.max_new_tokens, namer)


def create_key_namer(model: object) -> KeyNamer:
    """Constrained key naming over `model` for the spaces of this process's graph and Redis."""
    import redis

    from engram.embedding import get_embedder
    from engram.keys.decoder import KeyDecoder
    from engram.settings import get_settings
    from graph.driver import get_driver
    from graph.key_schema import ConstrainedKeyNamer, KeySchemas

    settings = get_settings()
    driver = get_driver()
    schemas = KeySchemas(
        driver, settings.neo4j.database, redis.Redis.from_url(settings.redis.url), settings.keys.reconcile_s
    )
    decoder = KeyDecoder(model, settings.keys.max_new_key_tokens)
    return ConstrainedKeyNamer(decoder, schemas, driver, settings.neo4j.database, get_embedder().encode)
