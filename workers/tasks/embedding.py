"""Embedding on the worker, routed to the `gpu` queue (served by the CPU worker when no GPU worker runs)."""

from __future__ import annotations

from workers.celery_app import app


@app.task(name="engram.embed_texts")
def embed_texts(texts: list[str]) -> list[list[float]]:
    from engram.embedding import get_embedder

    return [vector.tolist() for vector in get_embedder().encode(texts)]
