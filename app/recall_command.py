"""`engram recall`: print what the memory recalls for a query, with provenance and (optionally) the trace."""

from __future__ import annotations

import redis
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from engram.embedding import get_embedder
from engram.settings import get_settings
from graph.driver import get_driver
from graph.recall.abstraction import create_abstractor
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest


def print_recall(console: Console, request: RecallRequest, trace: bool) -> None:
    embedder = get_embedder()
    settings = get_settings()
    driver, database = get_driver(), settings.neo4j.database
    # ENGRAM_KEYS_MODEL set: a language model names the query's concept keys under the schema constraint.
    client = redis.Redis.from_url(settings.redis.url)
    abstractor = create_abstractor(settings.keys, driver, database, client, settings.recall)
    engine = RecallEngine(
        driver, database, embedder.encode, embedder.count_tokens, abstractor=abstractor, config=settings.recall
    )
    result = engine.recall(request)
    query, space = request.query, request.space
    table = Table(title=f"recall: {query!r} in '{space}' ({result.tokens} tokens, {result.hops} hop(s))")
    table.add_column("score", justify="right")
    table.add_column("relevance", justify="right")
    table.add_column("kind")
    table.add_column("knowledge")
    table.add_column("proven by")
    for item in result.items:
        # Stored text is escaped: rich would read "[shares an image]" or a Cypher "[r:PROVEN_BY]" as markup and drop it.
        proofs = "\n".join(f"{p.external_id} {p.text[:80]}" for p in item.provenance)
        relevance = "" if item.relevance is None else f"{item.relevance:.2f}"
        table.add_row(f"{item.score:.3f}", relevance, item.kind.value, escape(item.text), escape(proofs))
    console.print(table)
    if not result.items:
        console.print(escape(result.reason or "nothing recalled (is the space empty?)"), highlight=False)
    if trace:
        for step in result.trace:
            console.print(f"[bold]{step.step}[/bold] ({step.ms:.1f} ms): {escape(str(step.detail))}", highlight=False)
        console.print(f"Neo4j Browser:\n{escape(result.cypher)}", highlight=False)
