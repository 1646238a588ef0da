"""Forget with cascade: explicit deletion requests remove episodes and whatever knowledge only they prove."""

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


# Called with (space, keys of the concepts deleted) so key tries elsewhere can drop them.
KeysRemoved = Callable[[str, list[str]], None]


class Forgetter:
    def __init__(self, driver: neo4j.Driver, database: str, on_keys_removed: KeysRemoved | None = None) -> None:
        self._driver = driver
        self._database = database
        self._on_keys_removed = on_keys_removed

    def _refresh(self, space: str, concept_ids: list[str]) -> int:
        refreshed = refresh_concepts(self._driver, self._database, space, concept_ids)
        if self._on_keys_removed is not None and refreshed["removed_keys"]:
            self._on_keys_removed(space, refreshed["removed_keys"])
        return refreshed["concepts_removed"]

    def forget_sources(self, space: str, source_ids: Sequence[str]) -> ForgetResult:
        records, _, _ = self._driver.execute_query(
            load("forget/episodes_of_sources"), space=space, source_ids=list(source_ids), database_=self._database
        )
        return self.forget_episodes(space, records[0]["episode_ids"])

    def forget_knowledge(self, space: str, item_ids: Sequence[str]) -> ForgetResult:
        """Delete propositions or prescriptions themselves (the episodes stay: they happened)."""
        records, _, _ = self._driver.execute_query(
            load("forget/forget_knowledge"), space=space, ids=list(dict.fromkeys(item_ids)), database_=self._database
        )
        row = records[0]
        removed = self._refresh(space, sorted(row["concept_ids"] or []))
        return ForgetResult(
            episodes=[],
            knowledge=row["knowledge_ids"],
            sources=[],
            intents=row["intent_ids"] or [],
            concepts_removed=removed,
        )

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
        return ForgetResult(
            episodes=row["episode_ids"],
            knowledge=row["knowledge_ids"],
            sources=row["source_ids"],
            intents=row["intent_ids"],
            concepts_removed=removed,
        )
