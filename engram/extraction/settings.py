"""Which extractor extracts propositions, and its model's settings (ENGRAM_EXTRACTOR_*)."""

from __future__ import annotations

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from engram.extraction.base import ExtractorKind
from engram.settings import LocalModelSettings


class ExtractionSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ENGRAM_EXTRACTOR_", env_file=".env", extra="ignore")

    kind: ExtractorKind = ExtractorKind.OFFLINE
    model: str = ""  # a local transformers model path, or the served model name for `openai`
    base_url: str = ""  # OpenAI-compatible server (e.g. vLLM), for `openai`
    api_key: str = "EMPTY"
    max_new_tokens: int = 512
    # With a local model: name each fact's concepts as existing keys under the key-trie constraint.
    constrained_keys: bool = True
    # Seconds the JSON schema's constraint may take to compile for the model's vocabulary (a bounded schema never
    # finished with a 262k-token one); past it extraction fails with a clear error instead of hanging a worker.
    compile_budget_s: float = Field(default=120.0, gt=0)
    # Generations per episode whose output is not a valid extraction before the episode fails its job.
    attempts: int = Field(default=2, ge=1)
    timeout_s: float = Field(default=120.0, gt=0)  # one request to an OpenAI-compatible server

    @model_validator(mode="after")
    def _local_model(self) -> ExtractionSettings:
        # ENGRAM_LOCAL_MODEL (e.g. gemma3-270m) is the transformers extractor's model unless one is named.
        if self.kind is ExtractorKind.TRANSFORMERS and not self.model:
            self.model = LocalModelSettings().model
            if not self.model:
                raise ValueError(
                    "ENGRAM_EXTRACTOR_KIND=transformers needs ENGRAM_EXTRACTOR_MODEL (or ENGRAM_LOCAL_MODEL)"
                )
        return self

    @property
    def uses_model(self) -> bool:
        """A language model extracts (its jobs' extract stage goes to the workers' gpu queue)."""
        return self.kind is not ExtractorKind.OFFLINE
