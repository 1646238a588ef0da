"""Deterministic ids: the same input always maps to the same node, so every write can MERGE."""

from __future__ import annotations

import hashlib
import re
import unicodedata


def stable_id(kind: str, *parts: str) -> str:
    """`<kind>_<20 hex chars>` from the parts (sha256; parts joined with an unambiguous separator)."""
    digest = hashlib.sha256("\x1f".join((kind, *parts)).encode("utf-8")).hexdigest()[:20]
    return f"{kind}_{digest}"


SPACE_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")


def validate_space(name: str) -> str:
    """Space names are short slugs: they appear in ids, logs and Browser queries."""
    if not SPACE_NAME.match(name):
        raise ValueError(
            f"invalid space name {name!r}: use 1-64 characters of a-z, 0-9, '_', '.', '-', "
            "starting with a letter or digit"
        )
    return name


def normalize_text(text: str) -> str:
    """Case-, accent- and whitespace-insensitive form used to identify identical statements."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", folded)).strip()
