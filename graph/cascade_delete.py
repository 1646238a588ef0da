"""Forget with cascade: the statements that remove episodes, sources or knowledge, and whatever knowledge only they
prove. What a deletion removes; graph/deletion_fence.py records it against work in flight, and
workers/scope_deletion.py runs the two in order."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import neo4j
from pydantic import BaseModel

from graph.cypher import load
from graph.memory_writer import refresh_concepts


class ForgetResult(BaseModel):
    episodes: list[str]
    knowledge: list[str]  # propositions and prescriptions deleted
    sources: list[str]
    intents: list[str]
    concepts_removed: int


# Called with the space after a forget removed anything, to drop what else holds its text (key logs, caches).
Forgotten = Callable[[str], None]


class Forgetter:
    def __init__(self, driver: neo4j.Driver, database: str, on_forgotten: Forgotten | None = None) -> None:
        self._driver = driver
        self._database = database
        self._on_forgotten = on_forgotten

    def _refresh(self, space: str, concept_ids: list[str]) -> int:
        refreshed = refresh_concepts(self._driver, self._database, space, concept_ids)
        return int(refreshed["concepts_removed"])

    def _done(self, space: str, result: ForgetResult) -> ForgetResult:
        if self._on_forgotten is not None and (result.episodes or result.knowledge or result.concepts_removed):
            self._on_forgotten(space)
        return result

    def forget_sources(self, space: str, source_ids: Sequence[str]) -> ForgetResult:
        records, _, _ = self._driver.execute_query(
            load("forget/episodes_of_sources"), space=space, source_ids=list(source_ids), database_=self._database
        )
        return self.forget_episodes(space, records[0]["episode_ids"])

    def forget_knowledge(self, space: str, item_ids: Sequence[str]) -> ForgetResult:
        """Delete propositions or prescriptions themselves (the episodes stay: they happened)."""
        records, _, _ = self._driver.execute_query(
            load("forget/forget_knowledge"),
            space=space,
            ids=list(dict.fromkeys(item_ids)),
            restore_replaced=False,
            database_=self._database,
        )
        row = records[0]
        removed = self._refresh(space, sorted(row["concept_ids"] or []))
        result = ForgetResult(
            episodes=[],
            knowledge=row["knowledge_ids"],
            sources=[],
            intents=row["intent_ids"] or [],
            concepts_removed=removed,
        )
        return self._done(space, result)

    def forget_episodes(self, space: str, episode_ids: Sequence[str]) -> ForgetResult:
        ids = list(dict.fromkeys(episode_ids))
        with self._driver.session(database=self._database) as session:
            touched = session.execute_read(
                lambda tx: tx.run(load("forget/touched_concepts"), space=space, episode_ids=ids).single(strict=True)[0]
            )
            row = session.execute_write(
                lambda tx: tx.run(load("forget/forget_episodes"), space=space, episode_ids=ids).single(strict=True)
            )
        concept_ids = set(touched) | set(row["concept_ids"] or [])
        removed = self._refresh(space, sorted(concept_ids))
        result = ForgetResult(
            episodes=row["episode_ids"],
            knowledge=row["knowledge_ids"],
            sources=row["source_ids"],
            intents=row["intent_ids"],
            concepts_removed=removed,
        )
        return self._done(space, result)
