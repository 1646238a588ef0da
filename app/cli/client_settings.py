"""Settings of the CLI's client commands (`engram remember`, `recall`, `forget`, `list`, `export`, `import`, `ingest`).

Kept apart from engram/settings.py so that a client command imports neither the recall configuration nor a graph
driver: it only talks HTTP to the API.
"""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.cli.api_client import api_base

# One ingest request carries at most this much JSON: under the API's body limit (ENGRAM_API_MAX_BODY_BYTES, 4 MB).
MAX_REQUEST_BYTES = 3_000_000
# Sources per export page (the API allows 1-200): a page is one response.
EXPORT_PAGE_SOURCES = 100
EXPORT_PAGE_NODES = 1000  # nodes per exportVectors request (about 2.2 MB with their vectors)
# Items per page when listing memories or sources (the API caps a page at ENGRAM_API_MAX_PAGE, 100).
LIST_PAGE = 100


class ClientSettings(BaseSettings):
    """Where the API is and the key that opens a space (env ENGRAM_URL, ENGRAM_API_KEY; else the local stack's API
    at ENGRAM_API_HOST:ENGRAM_API_PORT)."""

    model_config = SettingsConfigDict(env_prefix="ENGRAM_", env_file=".env", extra="ignore")

    url: str | None = None
    api_key: SecretStr | None = None
    api_host: str = "127.0.0.1"
    api_port: int = 8000
    timeout_s: float = Field(default=60.0, gt=0, description="seconds one request may take (ENGRAM_TIMEOUT_S)")
    poll_s: float = Field(default=0.5, gt=0, description="seconds between two looks at a running job")

    def base_url(self) -> str:
        return api_base(self.url or f"http://{self.api_host}:{self.api_port}")
