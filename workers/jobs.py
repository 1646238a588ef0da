"""Ingest jobs in Redis: status, progress per stage, and the artifacts passed from stage to stage.

Stage outputs live under the job's keys (JSON plus raw float32 arrays) rather than in Celery messages,
so a redelivered stage re-reads its input and re-writes its output: stages are idempotent.

Redis runs `noeviction` with a memory cap, so a job's bulk lives only while the job runs: once it succeeds or
fails, its payload and artifacts are deleted and only the status record stays, for FINISHED_JOB_TTL_S. What a space's
unfinished jobs hold is counted (`pending_bytes`), so the API can refuse a tenant's next job before that tenant's
backlog fills Redis for every tenant.
"""

from __future__ import annotations

import json
import time
import uuid
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import numpy as np
import redis
from numpy.typing import NDArray
from pydantic import BaseModel

from engram.scope import parent_space

JOB_TTL_S = 7 * 24 * 3600  # a job still queued or running after a week is abandoned
FINISHED_JOB_TTL_S = 24 * 3600  # the status of a finished job (a few hundred bytes), for clients polling late
# redis-py's own key/value union: its `hset(mapping=...)` is invariant in these types.
Field = bytes | bytearray | memoryview | str | int | float
STAGES = ("standardize", "extract", "embed", "write", "consolidate")
# Every job's id, scored by its creation time, so /metrics counts jobs without scanning Redis's whole keyspace.
# Ids older than JOB_TTL_S are dropped at each create, ids whose record expired at each count.
JOB_INDEX = "engram:jobs"

# Per space: unfinished job id -> the bytes it is charged. An entry leaves when its job finishes, or, should a job be
# abandoned, when its payload key has expired (checked at each reservation).
_PENDING_KEY = "engram:pending:{space}"


def _pending_key(space: str) -> str:
    """A space's charge: its users' jobs (engram/scope.py partitions) count against the space, not apart."""
    return _PENDING_KEY.format(space=parent_space(space))


# What a job holds in Redis besides its payload (its status record, ~0.4 KB, and its Celery message, ~2.4 KB), charged
# with it: a backlog of tiny jobs counts for what it takes, and the cap bounds the entries a reservation reads.
JOB_OVERHEAD_BYTES = 4096
# Atomically: drop entries whose payload is gone, then, unless this job would take the space past the limit, store
# its payload and charge it. A refused job writes nothing.
# KEYS[1]: the space's pending hash, KEYS[2]: this job's payload key. ARGV: job id, bytes charged, limit (0: none),
# the job keys' prefix, the payload, its TTL in seconds. Returns {1 if stored else 0, bytes already charged}.
_RESERVE_SCRIPT = """
local pending = 0
local entries = redis.call('HGETALL', KEYS[1])
for i = 1, #entries, 2 do
  if redis.call('EXISTS', ARGV[4] .. entries[i] .. ':payload') == 1 then
    pending = pending + tonumber(entries[i + 1])
  else
    redis.call('HDEL', KEYS[1], entries[i])
  end
end
local limit = tonumber(ARGV[3])
if limit > 0 and pending + tonumber(ARGV[2]) > limit then
  return {0, pending}
end
redis.call('SET', KEYS[2], ARGV[5], 'EX', ARGV[6])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return {1, pending}
"""


# Writes to an unfinished job only: a stage still running when its job was purged, failed or deleted with its scope
# must not put back what the job's end removed (a deleted job's status record, its artifacts for JOB_TTL_S).
# KEYS[1]: the job's status record, KEYS[2..]: keys to SET. ARGV[1]: 'hset' or 'set', ARGV[2]: TTL (set), then the
# fields and values (hset) or one value per key (set). Returns 1 if written, 0 if the job has finished or is gone.
_IF_UNFINISHED = """
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'queued' and state ~= 'running' then return 0 end
if ARGV[1] == 'hset' then
  for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
else
  for i = 2, #KEYS do redis.call('SET', KEYS[i], ARGV[i + 1], 'EX', ARGV[2]) end
end
return 1
"""
# A job's final state, written only while its status record exists (a job deleted with its scope stays gone).
# KEYS[1]: the status record; ARGV[1]: TTL, then fields and values.
_CLOSE_IF_PRESENT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
"""


class JobState(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


class JobStatus(BaseModel):
    id: str
    space: str
    state: JobState
    stage: str
    done: int
    total: int
    stages_done: list[str]
    stage_seconds: dict[str, float]
    counts: dict[str, int]
    error: str
    created_at: str
    finished_at: str

    @classmethod
    def gone(cls, job_id: str) -> JobStatus:
        """What a stage finds of a job whose record is gone (deleted with its scope, or expired): a finished job,
        with nothing left to do."""
        return cls(
            id=job_id, space="", state=JobState.FAILED, stage="", done=0, total=0, stages_done=[], stage_seconds={},
            counts={}, error="gone", created_at="", finished_at="",
        )  # fmt: skip

    @property
    def created(self) -> datetime:
        """When the job was submitted: deletions begun later win over its writes (graph/deletion_fence.py)."""
        return datetime.fromisoformat(self.created_at)

    @property
    def fraction(self) -> float:
        finished = len(self.stages_done) / len(STAGES)
        within = (self.done / self.total) / len(STAGES) if self.total and self.stage not in self.stages_done else 0.0
        return min(1.0, finished + within)


class UnknownJob(KeyError):
    pass


class PendingLimit(Exception):
    """A space's unfinished jobs already hold so many bytes that this job would pass its limit."""

    def __init__(self, space: str, pending: int, size: int, limit: int) -> None:
        if size > limit:
            advice = "split it into smaller jobs"
        else:
            advice = f"{pending:,} bytes of the space's jobs are waiting or running; resubmit once some have finished"
        super().__init__(
            f"this ingest job takes {size:,} bytes in Redis, over space {space!r}'s limit of {limit:,} "
            f"(ENGRAM_API_MAX_PENDING_INGEST_BYTES): {advice}"
        )
        self.space, self.pending, self.size, self.limit = space, pending, size, limit


class JobStore:
    def __init__(self, client: redis.Redis) -> None:
        self._redis = client
        self._if_unfinished = client.register_script(_IF_UNFINISHED)
        self._close_if_present = client.register_script(_CLOSE_IF_PRESENT)

    def _update(self, job_id: str, mapping: dict[Field, Field]) -> bool:
        """HSETs the job's status fields unless it has finished or is gone."""
        args: list[Field] = ["hset", 0]
        for name, value in mapping.items():
            args += [name, value]
        return bool(self._if_unfinished(keys=[self._key(job_id)], args=args))

    @staticmethod
    def _key(job_id: str, suffix: str = "") -> str:
        return f"engram:job:{job_id}{':' + suffix if suffix else ''}"

    def create(self, space: str, payload: list[dict[str, Any]], max_pending_bytes: int = 0) -> str:
        """Stores a queued job. With `max_pending_bytes` (> 0), refuses it with PendingLimit, storing nothing, when
        the space's unfinished jobs and this one would take more than that (payload plus JOB_OVERHEAD_BYTES each)."""
        job_id = uuid.uuid4().hex
        body = json.dumps(payload)
        charged = len(body.encode()) + JOB_OVERHEAD_BYTES
        pending_key = _pending_key(space)
        stored, pending = self._redis.eval(
            _RESERVE_SCRIPT,
            2,
            pending_key,
            self._key(job_id, "payload"),
            job_id,
            charged,
            max_pending_bytes,
            self._key(""),
            body,
            JOB_TTL_S,
        )
        if not stored:
            raise PendingLimit(space, int(pending), charged, max_pending_bytes)
        try:
            now = time.time()
            pipe = self._redis.pipeline()
            pipe.hset(
                self._key(job_id),
                mapping={
                    "id": job_id,
                    "space": space,
                    "state": JobState.QUEUED.value,
                    "stage": "",
                    "done": 0,
                    "total": 0,
                    "stages_done": "[]",
                    "stage_seconds": "{}",
                    "counts": "{}",
                    "error": "",
                    "created_at": datetime.now(UTC).isoformat(),
                    "finished_at": "",
                },
            )
            pipe.expire(self._key(job_id), JOB_TTL_S)
            pipe.zadd(JOB_INDEX, {job_id: now})
            pipe.zremrangebyscore(JOB_INDEX, "-inf", now - JOB_TTL_S)
            pipe.execute()
        except redis.RedisError:
            self.discard(job_id, space)
            raise
        return job_id

    def discard(self, job_id: str, space: str) -> None:
        """Removes a job that was never queued (its message could not be sent): its keys and its charge."""
        self.remove(job_id, space)

    def counts(self, batch: int = 1_000) -> dict[tuple[str, str], int]:
        """(state, stage) -> how many jobs are in it, over every job record Redis still holds (a finished job's
        for FINISHED_JOB_TTL_S). A succeeded job's stage is the last one; a failed job's, the stage it failed in."""
        counted: dict[tuple[str, str], int] = {}
        ids = [i.decode() for i in self._redis.zrange(JOB_INDEX, 0, -1)]  # type: ignore[union-attr]
        gone: list[str] = []
        for start in range(0, len(ids), batch):
            chunk = ids[start : start + batch]
            pipe = self._redis.pipeline(transaction=False)
            for job_id in chunk:
                pipe.hmget(self._key(job_id), ["state", "stage"])
            for job_id, (state, stage) in zip(chunk, pipe.execute(), strict=True):
                if state is None:
                    gone.append(job_id)
                    continue
                key = (state.decode(), stage.decode() if stage else "")
                counted[key] = counted.get(key, 0) + 1
        if gone:
            self._redis.zrem(JOB_INDEX, *gone)
        return counted

    def pending_bytes(self, space: str) -> int:
        """Bytes the space's unfinished jobs are charged (payload plus JOB_OVERHEAD_BYTES each; abandoned jobs count
        until the next reservation drops them)."""
        sizes: list[bytes] = self._redis.hvals(_pending_key(space))  # type: ignore[assignment]
        return sum(int(size) for size in sizes)

    def status(self, job_id: str) -> JobStatus:
        stored: dict[bytes, bytes] = self._redis.hgetall(self._key(job_id))  # type: ignore[assignment]
        raw: dict[str, Any] = {k.decode(): v.decode() for k, v in stored.items()}
        if not raw:
            raise UnknownJob(job_id)
        for name in ("stages_done", "stage_seconds", "counts"):
            raw[name] = json.loads(raw[name])
        return JobStatus.model_validate(raw)

    def exists(self, job_id: str) -> bool:
        return bool(self._redis.exists(self._key(job_id)))

    def unfinished(self, job_id: str) -> bool:
        """Queued or running (not finished, purged, failed, nor gone)."""
        state = self._redis.hget(self._key(job_id), "state")
        return state in (JobState.QUEUED.value.encode(), JobState.RUNNING.value.encode())

    def payload(self, job_id: str) -> list[dict[str, Any]]:
        data = self._redis.get(self._key(job_id, "payload"))
        if data is None:
            raise UnknownJob(job_id)
        return json.loads(data)  # type: ignore[no-any-return]

    def start_stage(self, job_id: str, stage: str, total: int = 0) -> float:
        self._update(job_id, {"state": JobState.RUNNING.value, "stage": stage, "done": 0, "total": total})
        return time.perf_counter()

    def progress(self, job_id: str, done: int, total: int | None = None) -> None:
        mapping: dict[Field, Field] = {"done": done}
        if total is not None:
            mapping["total"] = total
        self._update(job_id, mapping)

    def finish_stage(self, job_id: str, stage: str, started: float, counts: dict[str, int] | None = None) -> None:
        status = self.status(job_id)
        stages_done = [s for s in status.stages_done if s != stage] + [stage]
        seconds = {**status.stage_seconds, stage: round(time.perf_counter() - started, 3)}
        mapping: dict[Field, Field] = {
            "stages_done": json.dumps(stages_done),
            "stage_seconds": json.dumps(seconds),
        }
        if counts:
            mapping["counts"] = json.dumps({**status.counts, **counts})
        if stage == STAGES[-1]:
            mapping |= {"state": JobState.SUCCEEDED.value, "finished_at": datetime.now(UTC).isoformat()}
            self._close(job_id, mapping)
            return
        self._update(job_id, mapping)

    def fail(self, job_id: str, error: str) -> None:
        """Marks the job failed, unless it has already finished or is gone: a stage redelivered late may fail on the
        artifacts the completed job dropped, and must not turn a finished job into a failed one, nor replace the error
        a failed (or purged) job was given first, nor bring back the record of a job deleted with its scope."""
        if self._redis.hget(self._key(job_id), "state") in (
            None,
            JobState.SUCCEEDED.value.encode(),
            JobState.FAILED.value.encode(),
        ):
            return
        # The tenant resubmits a failed job: its payload and stage outputs are of no use.
        self._close(
            job_id,
            {"state": JobState.FAILED.value, "error": error[:2000], "finished_at": datetime.now(UTC).isoformat()},
        )

    def put_artifact(
        self, job_id: str, stage: str, data: dict[str, Any], arrays: dict[str, NDArray[np.float32]]
    ) -> None:
        """Stores a stage's output, unless the job has finished or is gone (a stage that outlived its job's end
        must not leave its output behind)."""
        shapes = {name: list(array.shape) for name, array in arrays.items()}
        keys = [self._key(job_id), self._key(job_id, stage), *(self._key(job_id, f"{stage}:{n}") for n in arrays)]
        values: list[Field] = [json.dumps({"data": data, "shapes": shapes})]
        values += [np.ascontiguousarray(array, np.float32).tobytes() for array in arrays.values()]
        self._if_unfinished(keys=keys, args=["set", JOB_TTL_S, *values])

    def get_artifact(self, job_id: str, stage: str) -> tuple[dict[str, Any], dict[str, NDArray[np.float32]]]:
        raw = self._redis.get(self._key(job_id, stage))
        if raw is None:
            raise UnknownJob(f"{job_id}: no output of stage {stage!r}")
        envelope = json.loads(raw)
        arrays = {}
        for name, shape in envelope["shapes"].items():
            buffer: bytes = self._redis.get(self._key(job_id, f"{stage}:{name}"))  # type: ignore[assignment]
            arrays[name] = np.frombuffer(buffer, dtype=np.float32).reshape(shape)
        return envelope["data"], arrays

    def _close(self, job_id: str, final: dict[Field, Field]) -> None:
        """Writes a job's final state; in the same transaction its payload and artifacts go (nobody sees a finished
        job still holding them, nor a job without them that is not finished) and its status record is given
        FINISHED_JOB_TTL_S."""
        keys = self._bulk_keys(job_id)
        space: bytes | None = self._redis.hget(self._key(job_id), "space")  # type: ignore[assignment]
        fields: list[Field] = [FINISHED_JOB_TTL_S]
        for name, value in final.items():
            fields += [name, value]
        pipe = self._redis.pipeline(transaction=True)
        self._close_if_present(keys=[self._key(job_id)], args=fields, client=pipe)
        pipe.delete(*keys)
        if space is not None:
            pipe.hdel(_pending_key(space.decode()), job_id)
        pipe.execute()

    def _bulk_keys(self, job_id: str) -> list[str]:
        """A job's payload and stage outputs (its status record apart)."""
        keys = [self._key(job_id, "payload"), *(self._key(job_id, s) for s in STAGES)]
        return keys + [k.decode() for k in self._redis.scan_iter(self._key(job_id, "*:*"))]

    def remove(self, job_id: str, space: str | None = None) -> None:
        """Removes every key of a job, its status record included, and its charge (of `space`, else the space its
        record names): for a job deleted with its scope, of which Redis must keep nothing (a stage still running
        writes nothing back: `_IF_UNFINISHED`), and for one never queued."""
        if space is None:
            named: bytes | None = self._redis.hget(self._key(job_id), "space")  # type: ignore[assignment]
            space = named.decode() if named is not None else None
        pipe = self._redis.pipeline(transaction=True)
        pipe.delete(self._key(job_id), *self._bulk_keys(job_id))
        pipe.zrem(JOB_INDEX, job_id)
        if space is not None:
            pipe.hdel(_pending_key(space), job_id)
        pipe.execute()

    def of_scope(self, space: str, with_users: bool = False, batch: int = 1_000) -> list[JobStatus]:
        """Every job of a memory space (and, `with_users`, of its users' partitions) whose record Redis holds,
        finished or not: the index's records are read a batch at a time for their space, whole only where it is."""
        ids = [i.decode() for i in self._redis.zrange(JOB_INDEX, 0, -1)]  # type: ignore[union-attr]
        found: list[JobStatus] = []
        for start in range(0, len(ids), batch):
            chunk = ids[start : start + batch]
            pipe = self._redis.pipeline(transaction=False)
            for job_id in chunk:
                pipe.hget(self._key(job_id), "space")
            for job_id, named in zip(chunk, pipe.execute(), strict=True):
                of = named.decode() if named is not None else None
                if of is None or not (of == space or (with_users and parent_space(of) == space)):
                    continue
                try:
                    found.append(self.status(job_id))
                except UnknownJob:
                    continue
        return found


def wait_for_job(store: JobStore, job_id: str, timeout_s: float = 300, poll_s: float = 0.2) -> JobStatus:
    """Block until the job succeeds or fails (raises TimeoutError after `timeout_s`)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        status = store.status(job_id)
        if status.state in (JobState.SUCCEEDED, JobState.FAILED):
            return status
        time.sleep(poll_s)
    raise TimeoutError(f"job {job_id} not finished after {timeout_s} s: {store.status(job_id)}")
