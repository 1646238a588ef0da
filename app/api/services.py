"""What the API process holds for its whole life: one Neo4j driver, one Redis client, the embedder.

Built once by the app's lifespan and kept on `app.state`, never in module globals.
"""

from __future__ import annotations

from dataclasses import dataclass

import neo4j
import redis

from engram.embedding import Embedder
from engram.settings import EngramSettings
from graph.api_keys import ApiKeyStore
from graph.forget import Forgetter
from graph.key_schema import publish_removed_keys
from graph.recall.abstraction import create_abstractor
from graph.recall.engine import RecallEngine
from workers.jobs import JobStore


@dataclass(frozen=True)
class ApiServices:
    settings: EngramSettings
    driver: neo4j.Driver
    redis: redis.Redis
    embedder: Embedder
    recall: RecallEngine
    jobs: JobStore
    keys: ApiKeyStore
    forgetter: Forgetter

    @property
    def database(self) -> str:
        return self.settings.neo4j.database


def create_services(settings: EngramSettings) -> ApiServices:
    from graph.driver import create_driver

    driver = create_driver(settings.neo4j)
    client = redis.Redis.from_url(settings.redis.url)
    embedder = Embedder(settings.embedding)
    database = settings.neo4j.database
    # ENGRAM_KEYS_MODEL set: a language model names each query's concept keys under the schema constraint.
    abstractor = create_abstractor(settings.keys, driver, database, client)
    return ApiServices(
        settings=settings,
        driver=driver,
        redis=client,
        embedder=embedder,
        recall=RecallEngine(driver, database, embedder.encode, embedder.count_tokens, abstractor=abstractor),
        jobs=JobStore(client),
        keys=ApiKeyStore(driver, database),
        forgetter=Forgetter(driver, database, lambda space, keys: publish_removed_keys(client, space, keys)),
    )


def close_services(services: ApiServices) -> None:
    services.driver.close()
    services.redis.close()
