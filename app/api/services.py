"""What the API process holds for its whole life: one Neo4j driver, one Redis client, the embedder.

Built once by the app's lifespan and kept on `app.state`, never in module globals.
"""

from __future__ import annotations

from dataclasses import dataclass

import neo4j
import redis

from app.api.security import space_counter_key
from engram.embedder_identity import EmbedderIdentity, identity_of
from engram.embedding import Embedder
from engram.native_threads import limit_math_threads
from engram.settings import EngramSettings
from graph.api_keys import ApiKeyStore
from graph.recall.associate.engine import Associator
from graph.recall.config import RecallConfig
from graph.recall.engine import RecallEngine
from graph.recall.logic.abstract import create_abstractor
from graph.scoped import ScopedMemory
from workers.jobs import JobStore
from workers.scope_deletion import ScopeDeletion, scope_deletion


@dataclass(frozen=True)
class ApiServices:
    settings: EngramSettings
    driver: neo4j.Driver
    redis: redis.Redis
    embedder: Embedder
    recall: RecallEngine
    associator: Associator  # proactive recall, on the recall engine
    jobs: JobStore
    keys: ApiKeyStore
    deletion: ScopeDeletion  # forget and deleteSpace (workers/scope_deletion.py)
    scoped: ScopedMemory
    embedder_identity: EmbedderIdentity  # recall refuses a space whose vectors are of another family

    @property
    def database(self) -> str:
        return self.settings.neo4j.database


def create_services(settings: EngramSettings) -> ApiServices:
    from graph.driver import create_driver

    driver = create_driver(settings.neo4j)
    client = redis.Redis.from_url(settings.redis.url)
    # A query is a few tokens: one thread (ENGRAM_API_MATH_THREADS), never borrowing the workers' cores.
    embedder = Embedder(settings.embedding.model_copy(update={"borrow_idle_cores": False}), settings.api.math_threads)
    limit_math_threads(settings.api.math_threads)  # per process (this one serves the API), once the model is loaded
    database = settings.neo4j.database
    # ENGRAM_KEYS_MODEL set: a language model names each query's concept keys under the schema constraint.
    recall_config = RecallConfig()  # ENGRAM_RECALL_*
    abstractor = create_abstractor(settings.keys, driver, database, client, recall_config)
    recall = RecallEngine(
        driver,
        database,
        embedder.encode,
        embedder.count_tokens,
        abstractor=abstractor,
        config=recall_config,
        read_timeout_s=settings.neo4j.read_timeout_s,
    )
    jobs = JobStore(client)
    return ApiServices(
        settings=settings,
        driver=driver,
        redis=client,
        embedder=embedder,
        recall=recall,
        associator=Associator(recall),
        jobs=jobs,
        keys=ApiKeyStore(driver, database),
        deletion=scope_deletion(driver, database, client, jobs, space_counter_key),
        scoped=ScopedMemory(driver, database),
        embedder_identity=identity_of(settings.embedding),
    )


def close_services(services: ApiServices) -> None:
    services.recall.close()
    services.driver.close()
    services.redis.close()
