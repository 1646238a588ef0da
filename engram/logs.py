"""Log lines of the API and the worker: one JSON object per line (or plain text, ENGRAM_LOG_FORMAT=plain), each
carrying the correlation id of the request it serves.

The API takes a request's id from its `X-Request-ID` header (or makes one) and answers with it; a job queued by
the request carries it in its Celery messages (workers/celery_app.py), so the worker's lines of that job carry it too.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from contextvars import ContextVar, Token
from datetime import UTC, datetime
from typing import Any, Literal

LogFormat = Literal["json", "plain"]
REQUEST_ID_HEADER = "X-Request-ID"
PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(correlation_id)s]: %(message)s"
# A client's id is kept when it is short and plain (it lands in every log line); otherwise a new one is made.
_CLIENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")
# Attributes Celery's and our own records may carry, copied into the JSON object when present.
_EXTRA = ("task_id", "task_name")

_correlation: ContextVar[str] = ContextVar("engram_correlation_id", default="")


def correlation_id() -> str:
    """The id of the request (or job) this code runs for; empty outside one."""
    return _correlation.get()


def set_correlation_id(value: str) -> Token[str]:
    return _correlation.set(value)


def reset_correlation_id(token: Token[str]) -> None:
    _correlation.reset(token)


def request_id_from(header: str | None) -> str:
    """The client's request id when it is usable, else a new one."""
    if header and _CLIENT_ID.fullmatch(header):
        return header
    return uuid.uuid4().hex


class CorrelationFilter(logging.Filter):
    """Gives every record the current correlation id (attached to handlers, so records of every logger get it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "correlation_id", ""):
            record.correlation_id = correlation_id()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, correlation id, and the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "correlation_id": getattr(record, "correlation_id", "") or correlation_id(),
            "process": record.process,
        }
        for name in _EXTRA:
            if value := getattr(record, name, None):
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


def formatter(kind: LogFormat) -> logging.Formatter:
    return JsonFormatter() if kind == "json" else logging.Formatter(PLAIN_FORMAT)


def adopt_handlers(logger: logging.Logger, kind: LogFormat) -> None:
    """Puts the format and the correlation filter on a logger's handlers (the worker's, set up by Celery)."""
    for handler in logger.handlers:
        handler.setFormatter(formatter(kind))
        if not any(isinstance(f, CorrelationFilter) for f in handler.filters):
            handler.addFilter(CorrelationFilter())


def uvicorn_log_config(kind: LogFormat, level: str = "INFO") -> dict[str, Any]:
    """logging.config.dictConfig for the API process: the root logger and uvicorn's own, all to stderr in `kind`."""
    handler = {
        "class": "logging.StreamHandler",
        "formatter": kind,
        "filters": ["correlation"],
        "stream": "ext://sys.stderr",
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"correlation": {"()": CorrelationFilter}},
        "formatters": {"json": {"()": JsonFormatter}, "plain": {"format": PLAIN_FORMAT}},
        "handlers": {"default": handler},
        "root": {"handlers": ["default"], "level": level},
        "loggers": {
            # uvicorn's loggers would otherwise have handlers of their own (lines twice, one unstructured).
            name: {"handlers": [], "level": level, "propagate": True}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }
