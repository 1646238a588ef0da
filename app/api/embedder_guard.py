"""Before recall or associate compares a query's vector with a space's: the space's vectors must be of the server's
embedder family (graph/embedder_record.py), else a clear error naming both and the reembed command."""

from __future__ import annotations

import asyncio

from app.api.context import ApiContext
from app.api.errors import EmbedderMismatchError
from graph.embedder_record import EmbedderMismatch, check_embedder, reembed_command


async def require_same_embedder(context: ApiContext) -> None:
    services = context.services
    command = reembed_command(context.key_space, context.user)
    try:
        await asyncio.to_thread(
            check_embedder, services.driver, services.database, context.space, services.embedder_identity, command
        )
    except EmbedderMismatch as exc:
        raise EmbedderMismatchError(str(exc)) from exc
