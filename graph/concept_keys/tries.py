"""A space's key schema in the graph, as decoding tries: loading, accommodation, retirement, a per-process cache.

`KeySchemas` holds one `SyncedSchema` per (tokenizer, space, kind), loaded from Neo4j on first use and then
kept current from the Redis change log (see engram/concept_keys/sync.py). `Accommodator` is the only way a new key
enters through the language-model path: it validates the proposed key, writes the Concept, inserts it into this
process's trie and publishes it to the others.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import neo4j
import numpy as np
import redis
from numpy.typing import NDArray

from engram.concept_keys.prompts import concept_key_prompt
from engram.concept_keys.sync import KeyKind, KeyLog, SyncedSchema
from engram.concept_keys.tokenization import InvalidKey, KeyTokenizer
from engram.extraction.keyphrases import normalize_key
from engram.ids import stable_id
from graph.cypher import load
from graph.params import vector_param
from graph.space_indexes import label_written

if TYPE_CHECKING:
    from engram.concept_keys.decoder import KeyDecoder

EmbedFn = Callable[[Sequence[str]], NDArray[np.float32]]
MAX_KEY_CHARS = 80

_LOADERS = {KeyKind.CONCEPT: "schema_read/concept_key_list", KeyKind.INTENT: "schema_read/intent_key_list"}


def load_key_strings(driver: neo4j.Driver, database: str, space: str, kind: KeyKind) -> list[str]:
    records, _, _ = driver.execute_query(load(_LOADERS[kind]), space=space, database_=database)
    return [str(r["key"]) for r in records if r["key"]]


class KeySchemas:
    """Per-process cache of synced key tries, keyed by tokenizer identity, space and kind."""

    def __init__(self, driver: neo4j.Driver, database: str, client: redis.Redis, reconcile_s: float = 300.0) -> None:
        self._driver = driver
        self._database = database
        self._client = client
        self._reconcile_s = reconcile_s
        self._schemas: dict[tuple[str, str, KeyKind], SyncedSchema] = {}
        self._lock = threading.Lock()

    def get(self, tokenizer: KeyTokenizer, space: str, kind: KeyKind = KeyKind.CONCEPT) -> SyncedSchema:
        cache_key = (tokenizer.identity, space, kind)
        with self._lock:
            schema = self._schemas.get(cache_key)
            if schema is None:
                schema = SyncedSchema(
                    tokenizer,
                    KeyLog(self._client, space, kind),
                    lambda: load_key_strings(self._driver, self._database, space, kind),
                    self._reconcile_s,
                )
                self._schemas[cache_key] = schema
            return schema


def publish_written_keys(client: redis.Redis, space: str, concepts: Sequence[str], intents: Sequence[str]) -> None:
    """Tell every process's tries about keys a job has just written to the graph."""
    if concepts:
        KeyLog(client, space, KeyKind.CONCEPT).publish(added=concepts)
    if intents:
        KeyLog(client, space, KeyKind.INTENT).publish(added=intents)


def reset_key_logs(client: redis.Redis, space: str) -> None:
    """Empty the space's key logs (every process reloads its tries from the graph): after a forget, no entry may
    still name a forgotten key or intent."""
    for kind in KeyKind:
        KeyLog(client, space, kind).reset()


def drop_key_logs(client: redis.Redis, space: str) -> None:
    """Remove the key logs of a deleted memory space, their version counters too: a process holding a trie of the
    space sees the version fall and reloads it from the graph, where nothing is left."""
    for kind in KeyKind:
        log = KeyLog(client, space, kind)
        client.delete(log.stream, log.counter)


def publish_removed_keys(client: redis.Redis, space: str, concepts: Sequence[str], intents: Sequence[str] = ()) -> None:
    """Tell every process's tries about concept keys deleted from the graph (orphans after forget or refresh) and
    intents (retired by a re-ingested trajectory whose task changed)."""
    if concepts:
        KeyLog(client, space, KeyKind.CONCEPT).publish(removed=concepts)
    if intents:
        KeyLog(client, space, KeyKind.INTENT).publish(removed=intents)


class Accommodator:
    """Validates a proposed key and brings it into the schema: graph, this process's trie, the change log."""

    def __init__(self, driver: neo4j.Driver, database: str, schema: SyncedSchema, space: str, embed: EmbedFn) -> None:
        self._driver = driver
        self._database = database
        self._schema = schema
        self._space = space
        self._embed = embed

    def validate(self, proposed: str) -> str:
        """The schema form of a proposed key, or InvalidKey."""
        key = normalize_key(proposed)
        if not key or len(key) > MAX_KEY_CHARS:
            raise InvalidKey(f"proposed key {proposed!r} normalises to {key!r}: empty or longer than {MAX_KEY_CHARS}")
        self._schema.trie().tokenizer.encode_key(key)  # raises InvalidKey when the tokens do not give it back
        return key

    def accommodate(self, proposed: str) -> str:
        """The key for `proposed`: an existing one when it normalises to it, else a new Concept."""
        key = self.validate(proposed)
        if key in self._schema.trie():
            return key
        embedding = vector_param(self._embed([proposed])[0])
        concept_id = stable_id("con", self._space, key)

        def write(tx: neo4j.ManagedTransaction) -> None:
            tx.run(
                load("keys/accommodate_concept"),
                space=self._space,
                id=concept_id,
                key=key,
                name=proposed.strip(),
                embedding=embedding,
            ).consume()
            label_written(tx, self._space, concepts=[concept_id])

        with self._driver.session(database=self._database) as session:
            session.execute_write(write)
        self._schema.add([key])
        return key

    def retire(self, key: str) -> bool:
        """Remove a key nothing mentions any more (from the graph, then from every trie); False if it stays."""
        records, _, _ = self._driver.execute_query(
            load("keys/retire_concept"), space=self._space, key=key, database_=self._database
        )
        if not records or int(records[0]["removed"]) == 0:
            return False
        self._schema.remove([key])
        return True


class ConstrainedKeyNamer:
    """Assimilation by a language model: each concept phrase of a fact becomes an existing key (constrained
    decoding over the space's trie), or, through the new-key escape, a key accommodated into the schema."""

    def __init__(
        self, decoder: KeyDecoder, schemas: KeySchemas, driver: neo4j.Driver, database: str, embed: EmbedFn
    ) -> None:
        self._decoder = decoder
        self._schemas = schemas
        self._driver = driver
        self._database = database
        self._embed = embed

    def name(self, space: str, fact: str, phrases: Sequence[str]) -> list[str]:
        schema = self._schemas.get(self._decoder.tokenizer, space, KeyKind.CONCEPT)
        accommodator = Accommodator(self._driver, self._database, schema, space, self._embed)
        keys: list[str] = []
        for phrase in phrases:
            choice = self._decoder.name_key(concept_key_prompt(fact, phrase), schema.trie(), allow_new=True)
            if choice is None:
                keys.append(phrase)  # nothing named: offline assimilation decides
            elif not choice.new:
                keys.append(choice.key)
            else:
                try:
                    keys.append(accommodator.accommodate(choice.key))
                except InvalidKey:
                    keys.append(phrase)
        return list(dict.fromkeys(keys))


def create_key_namer(model: object) -> ConstrainedKeyNamer:
    """Constrained key naming over `model` for the spaces of this process's graph and Redis: what a local-model
    extractor names concept keys with (engram.extraction.factory.create_extractor's `key_namer_for`)."""
    from engram.concept_keys.decoder import KeyDecoder
    from engram.embedding import get_embedder
    from engram.settings import get_settings
    from graph.driver import get_driver

    settings = get_settings()
    driver = get_driver()
    schemas = KeySchemas(
        driver, settings.neo4j.database, redis.Redis.from_url(settings.redis.url), settings.keys.reconcile_s
    )
    decoder = KeyDecoder(model, settings.keys.max_new_key_tokens)
    return ConstrainedKeyNamer(decoder, schemas, driver, settings.neo4j.database, get_embedder().encode)
