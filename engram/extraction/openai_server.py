"""Extraction through an OpenAI-compatible server (vLLM, llama.cpp's server, a hosted API), over plain HTTP.

Servers disagree on how a JSON schema is asked for: OpenAI and vLLM take `response_format: {"type": "json_schema",
"json_schema": {...}}`, llama.cpp's server answered that with HTTP 500 and takes `{"type": "json_object", "schema":
...}`. The first form is tried first; a 400/422/500 answer to it switches this extractor to the second for good (a
server does not change its mind). The schema sent is the loose one (engram/extraction/llm.py); the answer is
validated against the bounded one by the caller. A server that is down, slow past the timeout or answers something
else is an `ExtractionError` naming the server, never a half-used answer.
"""

from __future__ import annotations

from typing import Any

import httpx

from engram.extraction.base import ExtractionError
from engram.extraction.generation import GenerateFn, loose_schema
from engram.extraction.prompts.extract_propositions import ExtractionOutput

SCHEMA_NAME = "extraction"
REJECTED_FORMAT = frozenset({400, 422, 500})


def response_formats(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The ways of asking for `schema`, in the order they are tried."""
    return [
        {"type": "json_schema", "json_schema": {"name": SCHEMA_NAME, "schema": schema, "strict": True}},
        {"type": "json_object", "schema": schema},
    ]


class OpenAIServer:
    def __init__(self, base_url: str, model: str, api_key: str, timeout_s: float) -> None:
        if not base_url:
            raise ExtractionError("ENGRAM_EXTRACTOR_KIND=openai needs ENGRAM_EXTRACTOR_BASE_URL (the server's /v1 URL)")
        self.base_url = base_url.rstrip("/")
        self._model = model
        self._headers = {"Authorization": f"Bearer {api_key}"}
        self._timeout_s = timeout_s
        self._formats = response_formats(loose_schema(ExtractionOutput.model_json_schema()))

    def _post(self, body: dict[str, Any]) -> httpx.Response:
        try:
            return httpx.post(
                f"{self.base_url}/chat/completions", json=body, headers=self._headers, timeout=self._timeout_s
            )
        except httpx.TimeoutException:
            raise ExtractionError(
                f"the extraction server {self.base_url} did not answer within {self._timeout_s:g} s"
            ) from None
        except httpx.HTTPError as error:
            raise ExtractionError(
                f"the extraction server {self.base_url} is unreachable ({type(error).__name__})"
            ) from None

    def generate(self, prompt: str, max_new_tokens: int, attempt: int = 0) -> str:
        body: dict[str, Any] = {
            "model": self._model,
            "messages": [{"role": "user", "content": prompt}],
            "max_tokens": max_new_tokens,
            "temperature": 0.7 if attempt else 0.0,
        }
        while True:
            response = self._post({**body, "response_format": self._formats[0]})
            if response.status_code in REJECTED_FORMAT and len(self._formats) > 1:
                self._formats = self._formats[1:]  # this server takes the next form
                continue
            if response.status_code != 200:
                raise ExtractionError(f"the extraction server {self.base_url} answered HTTP {response.status_code}")
            try:
                return str(response.json()["choices"][0]["message"]["content"])
            except (ValueError, KeyError, IndexError, TypeError):
                raise ExtractionError(f"the extraction server {self.base_url} answered no chat completion") from None

    @property
    def response_format(self) -> str:
        return str(self._formats[0]["type"])


def openai_generate_fn(base_url: str, model: str, api_key: str, timeout_s: float) -> GenerateFn:
    return OpenAIServer(base_url, model, api_key, timeout_s).generate
