"""The roles of an API key (graph/api_keys.py), apart from the key store so a command line can name them without
importing a graph driver."""

from __future__ import annotations

from enum import StrEnum


class KeyRole(StrEnum):
    READER = "reader"
    WRITER = "writer"
    OWNER = "owner"

    @property
    def rank(self) -> int:
        return list(KeyRole).index(self)
