"""Proposition extraction with a language model, its output validated against `ExtractionOutput`.

Two backends behind one interface: a local transformers model through Outlines (steerable: a JSON constraint is
applied as a logits processor) or an OpenAI-compatible server (the schema travels with the request:
`engram/extraction/openai_server.py`). The constraint is the schema without its length and size bounds: with a
262k-token vocabulary (Gemma 3) the bounded schema never finished compiling (killed after 5.5 min at 5.4 GB), the
loose one compiles in seconds; the bounds are checked after. Compilation runs under a time budget. An answer that
is not valid (cut off at the token budget, over a bound) is generated again (sampling) up to `attempts` times,
then the episode fails with `ExtractionError`: nothing of it is used.
"""

from __future__ import annotations

import concurrent.futures
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import ValidationError

from engram.extraction.base import DraftProposition, EpisodeContext, ExtractionError
from engram.extraction.generation import GenerateFn, loose_schema
from engram.extraction.prompts.extract_propositions import WORST_CASE_TOKENS, ExtractionOutput, build_prompt
from engram.extraction.temporal import resolve_relative_times

if TYPE_CHECKING:
    from engram.extraction.settings import ExtractionSettings

log = logging.getLogger(__name__)


def validate_output(raw: str) -> ExtractionOutput:
    """The model's answer as an `ExtractionOutput`, bounds included (ExtractionError when it is not one)."""
    try:
        return ExtractionOutput.model_validate_json(raw)
    except ValidationError as error:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'answer'}: {e['msg']}" for e in error.errors()[:3])
        raise ExtractionError(f"the language model's answer is not a valid extraction ({problems})") from error


class KeyNamer(Protocol):
    """Maps a fact's concept phrases to keys of the space's schema (new keys only through accommodation)."""

    def name(self, space: str, fact: str, phrases: Sequence[str]) -> list[str]: ...


class LLMExtractor:
    def __init__(
        self,
        generate: GenerateFn,
        max_new_tokens: int = WORST_CASE_TOKENS,
        key_namer: KeyNamer | None = None,
        attempts: int = 2,
    ) -> None:
        # Fewer tokens than the schema's worst case could cut a valid prefix short of a complete object.
        self._generate = generate
        self._max_new_tokens = max(max_new_tokens, WORST_CASE_TOKENS)
        self._key_namer = key_namer
        self._attempts = attempts

    def _concepts(self, episode: EpisodeContext, fact: str, phrases: Sequence[str]) -> list[str]:
        """The fact's concepts as schema keys when a key namer and the space are known, else the raw phrases."""
        if self._key_namer is None or not episode.space or not phrases:
            return list(dict.fromkeys(phrases))
        return self._key_namer.name(episode.space, fact, phrases)

    def extract_one(self, episode: EpisodeContext) -> ExtractionOutput:
        prompt = build_prompt(episode)
        for attempt in range(self._attempts):
            try:
                return validate_output(self._generate(prompt, self._max_new_tokens, attempt))
            except ExtractionError as error:
                log.warning("episode %s, attempt %d: %s", episode.episode_id, attempt + 1, error)
                if attempt + 1 == self._attempts:
                    raise
        raise AssertionError("unreachable: attempts >= 1")

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


def compile_within(build: Callable[[], Any], budget_s: float, what: str) -> Any:
    """`build()` (a constraint's compilation) if it finishes within `budget_s`, else ExtractionError. The compiler
    releases the GIL, so the wait is kept; a build past its budget is left to finish on its own thread."""
    pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="schema-compile")
    try:
        return pool.submit(build).result(timeout=budget_s)
    except concurrent.futures.TimeoutError:
        raise ExtractionError(
            f"{what} did not compile within {budget_s:g} s for this model's vocabulary "
            "(ENGRAM_EXTRACTOR_COMPILE_BUDGET_S)"
        ) from None
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def outlines_generate_fn(
    outlines_model: object, compile_budget_s: float = 120.0, bounded: bool = False, **kwargs: Any
) -> GenerateFn:
    """A generate function over a steerable Outlines model, its JSON constraint compiled once (within the budget).

    Whitespace between JSON tokens is pinned to none: otherwise a model can spend its whole token budget
    on whitespace and the object is cut off before it is complete. A retry samples (temperature 0.7) unless the
    caller chose its own generation arguments: greedy decoding would repeat the same invalid answer.
    An Outlines llama.cpp model works too (numpy arrays; its arguments are `max_tokens` and `temperature`), but only
    with numba installed: without it the constraint fails silently inside llama.cpp (engram/llamacpp_model.py).
    """
    import outlines
    from outlines.types import JsonSchema

    llamacpp = getattr(outlines_model, "tensor_library_name", "torch") == "numpy"
    if llamacpp:
        from engram.llamacpp_model import require_numba

        require_numba()

    schema = ExtractionOutput.model_json_schema()
    # `bounded` keeps the bounds in the constraint: only for small vocabularies (a tiny test model).
    constraint = JsonSchema(schema if bounded else loose_schema(schema), whitespace_pattern="")
    generator = compile_within(
        lambda: outlines.Generator(outlines_model, constraint),  # type: ignore[arg-type]
        compile_budget_s,
        "the extraction schema",
    )

    def generate(prompt: str, max_new_tokens: int, attempt: int = 0) -> str:
        if llamacpp:  # greedy is temperature 0 there (its default samples at 0.8)
            sampling = kwargs or {"temperature": 0.7 if attempt else 0.0}
            return str(generator(prompt, max_tokens=max_new_tokens, **sampling))
        sampling = kwargs or ({"do_sample": True, "temperature": 0.7} if attempt else {})
        return str(generator(prompt, max_new_tokens=max_new_tokens, **sampling))

    return generate


def load_transformers_model(spec: str) -> object:
    """A local transformers model for Outlines: a known model's name (`gemma3-270m`, engram/local_model.py) or a
    model directory. Never downloads; errors are `LocalModelError`, naming the file and what to do."""
    import outlines

    from engram.local_model import load
    from engram.settings import get_settings

    loaded = load(spec, get_settings().state_dir)
    log.info("language model %s: %s", spec, loaded.description)
    return outlines.from_transformers(loaded.model, loaded.tokenizer)


def load_openai_model(base_url: str, model_name: str, api_key: str) -> object:
    """An OpenAI-compatible server as an Outlines model (needs the `openai` package), e.g. for the LM judge."""
    import openai
    import outlines

    return outlines.from_openai(openai.OpenAI(base_url=base_url, api_key=api_key), model_name)


def create_llm_extractor(
    settings: ExtractionSettings, key_namer_for: Callable[[object], KeyNamer] | None = None
) -> LLMExtractor:
    from engram.extraction.base import ExtractorKind

    if settings.kind is not ExtractorKind.TRANSFORMERS:
        from engram.extraction.openai_server import openai_generate_fn

        generate = openai_generate_fn(settings.base_url, settings.model, settings.api_key, settings.timeout_s)
        return LLMExtractor(generate, settings.max_new_tokens, attempts=settings.attempts)
    model = load_transformers_model(settings.model)
    # A local model is steerable: it also names concept keys under the schema's trie constraint.
    namer = key_namer_for(model) if settings.constrained_keys and key_namer_for is not None else None
    generate = outlines_generate_fn(model, settings.compile_budget_s)
    return LLMExtractor(generate, settings.max_new_tokens, namer, settings.attempts)
