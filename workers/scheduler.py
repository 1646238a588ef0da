"""Fair scheduling of ingest stages between spaces (tenants), with every piece of state in Redis.

A job's stages are not queued in Celery as one chain at submission (one tenant's thousand jobs would put five
thousand messages ahead of everybody else's). A job waits in its space's ready list; `dispatch` hands out free worker
slots, one stage at a time, round-robin over the spaces with ready jobs, and only then publishes that stage's Celery
message. When a stage ends its job goes back to the front of its space's list for the next stage, and the slot is
handed out again. So the broker holds about one message per worker slot, and the order of work is decided here:

- a space runs at most `space_share` of the live slots (at least one) while another space was active in the last
  `borrow_after_idle_s` and has no work in flight (its next job may come any moment: a slot is kept for it); with
  nobody else about, a space borrows every free slot;
- the space that has used the workers least lately goes first (its slot time, decayed by half every
  `usage_half_life_s`, plus its running stages' time so far), then the ring's order (the space served last goes to
  the back): slot *time* is shared, not turns, so a tenant of small jobs goes ahead of one whose long stages have
  held a slot, and a small job goes ahead of a large one;
- workers announce their slots (`register_worker`, renewed every `reconcile_interval_s`, expiring 3 times that):
  slots are counted over every live worker, on every machine;
- a consolidation run is scheduled the same way, as a one-stage job of its space (`CONSOLIDATION`, its id the
  Celery task id): it holds a slot for as long as it runs, so it counts against its space's share and slot time
  like an ingest stage, and a tenant's consolidations cannot take the slots the others' ingest waits for.

Exactly once through worker kills: a stage's message is acknowledged late and redelivered, as before; `advance`
moves a job on only from the stage it had dispatched, so a duplicate (a stage redelivered after it had finished)
moves nothing. The reconciler (`reconcile`, every few seconds in each worker's main process, one at a time under a
lock) finds what a lost message (a purged queue, Redis data lost) would leave behind: a dispatched stage whose message
is in no queue and held by no worker, twice in a row, goes back to the front of its space's list; a charge
(workers/jobs.py) whose job has finished or is gone is released; an unfinished job nobody schedules (submitted
before this scheduler, or its entry lost) is scheduled at its next stage.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import redis

from engram.settings import WorkerSettings
from workers.jobs import STAGES, JobState, JobStore, UnknownJob

log = logging.getLogger("engram.worker")
PREFIX = "engram:sched:"
INFLIGHT = PREFIX + "inflight"  # job id -> when its current stage was dispatched
STAGE = PREFIX + "stage"  # job id -> the stage it waits for or runs
SPACE = PREFIX + "space"  # job id -> its space
CORRELATION = PREFIX + "correlation"  # job id -> the correlation id of the request that submitted it
MISSING = PREFIX + "missing"  # job id -> when its dispatched message was first found missing
WORKERS = PREFIX + "workers"  # worker hostname -> when its registration expires
LAST_SEEN = PREFIX + "last-seen"  # when any worker last announced itself (epoch seconds)
SLOTS = PREFIX + "slots"  # worker hostname -> its pool processes
RECONCILE_LOCK = PREFIX + "reconcile"
PENDING_PATTERN = "engram:pending:*"  # workers/jobs.py: per space, unfinished job id -> bytes charged
# Kombu's Redis transport: a queue is a list (one per priority step), messages taken by a worker and not yet
# acknowledged are in the `unacked` hash.
UNACKED = "unacked"
PRIORITY_SEPARATOR = "\x06\x16"
CONSOLIDATION_TASK = "engram.consolidate.space"

# Lua: a space's slot time, decayed by half every ARGV half-life seconds (`usage_half_life_s`), and its update
# when one of its stages ends (the time since the job was dispatched is added).
_USAGE = """
local function usage(p, space, now, half)
  local stored = redis.call('HMGET', p .. 'usage', space, space .. '@')
  if not stored[1] then return 0 end
  return tonumber(stored[1]) * math.pow(0.5, (now - tonumber(stored[2])) / half)
end
local function charge_usage(p, job, space, now, half)
  local dispatched = redis.call('ZSCORE', p .. 'inflight', job)
  if dispatched and space then
    local used = usage(p, space, now, half) + math.max(0, now - tonumber(dispatched))
    redis.call('HSET', p .. 'usage', space, used, space .. '@', now)
  end
end
"""

_ENQUEUE = """
local p = ARGV[6]
redis.call('HSET', p .. 'stage', ARGV[1], ARGV[3])
redis.call('HSET', p .. 'space', ARGV[1], ARGV[2])
if ARGV[4] == '1' then
  redis.call('LPUSH', p .. 'ready:' .. ARGV[2], ARGV[1])
else
  redis.call('RPUSH', p .. 'ready:' .. ARGV[2], ARGV[1])
end
if redis.call('SADD', p .. 'ringset', ARGV[2]) == 1 then redis.call('RPUSH', p .. 'ring', ARGV[2]) end
redis.call('ZADD', p .. 'active', ARGV[5], ARGV[2])
return 1
"""

# ARGV: now, space_share, borrow_after_idle_s, prefix, usage half-life. Returns {job, stage, job, stage, ...}
# now dispatched. Among the spaces that may take a slot, the one that has used the workers least lately (its decayed
# slot time plus its running stages' time so far) goes first, ties in ring order: a space with small jobs goes ahead
# of one whose long stages have held a slot, whatever the number of turns each had.
_DISPATCH = (
    _USAGE
    + """
local p = ARGV[4]
local half = tonumber(ARGV[5])
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', p .. 'workers', '-inf', now)
local slots = 0
for _, worker in ipairs(redis.call('ZRANGE', p .. 'workers', 0, -1)) do
  slots = slots + tonumber(redis.call('HGET', p .. 'slots', worker) or '0')
end
local running, used, total = {}, {}, 0
local inflight = redis.call('ZRANGE', p .. 'inflight', 0, -1, 'WITHSCORES')
for i = 1, #inflight, 2 do
  local space = redis.call('HGET', p .. 'space', inflight[i])
  if space then
    running[space] = (running[space] or 0) + 1
    used[space] = (used[space] or 0) + math.max(0, now - tonumber(inflight[i + 1]))
  end
  total = total + 1
end
local past = {}
local function cost(space)
  if past[space] == nil then past[space] = usage(p, space, now, half) end
  return past[space] + (used[space] or 0)
end
local cap = math.max(1, math.floor(slots * tonumber(ARGV[2])))
local out = {}
while total < slots do
  local ring = redis.call('LRANGE', p .. 'ring', 0, -1)
  if #ring == 0 then break end
  local chosen, least = nil, nil
  for _, space in ipairs(ring) do
    if (running[space] or 0) < cap and (least == nil or cost(space) < least) then chosen, least = space, cost(space) end
  end
  if chosen == nil then
    -- Every space with ready jobs is at its share. A free slot is lent unless a space active lately is idle now
    -- (no job ready, none running): its next job would find every slot taken.
    local waiting = false
    for _, space in ipairs(redis.call('ZRANGEBYSCORE', p .. 'active', now - tonumber(ARGV[3]), '+inf')) do
      if (running[space] or 0) == 0 and redis.call('SISMEMBER', p .. 'ringset', space) == 0 then
        waiting = true
        break
      end
    end
    if waiting then break end
    for _, space in ipairs(ring) do
      if least == nil or cost(space) < least then chosen, least = space, cost(space) end
    end
  end
  local job = redis.call('LPOP', p .. 'ready:' .. chosen)
  redis.call('LREM', p .. 'ring', 1, chosen)
  if redis.call('LLEN', p .. 'ready:' .. chosen) == 0 then
    redis.call('SREM', p .. 'ringset', chosen)
  else
    redis.call('RPUSH', p .. 'ring', chosen)
  end
  local stage = job and redis.call('HGET', p .. 'stage', job)
  if stage then
    redis.call('ZADD', p .. 'inflight', now, job)
    redis.call('ZADD', p .. 'active', now, chosen)
    running[chosen] = (running[chosen] or 0) + 1
    total = total + 1
    table.insert(out, job)
    table.insert(out, stage)
  end
end
return out
"""
)

# ARGV: job, the stage that ended, the next stage ('' after the last), now, prefix, usage half-life. Returns 1 if the
# job moved on, 0 for a stage that was not the job's dispatched one (a duplicate, or a job the scheduler does not hold).
_ADVANCE = (
    _USAGE
    + """
local p = ARGV[5]
if not redis.call('ZSCORE', p .. 'inflight', ARGV[1]) or redis.call('HGET', p .. 'stage', ARGV[1]) ~= ARGV[2] then
  return 0
end
local space = redis.call('HGET', p .. 'space', ARGV[1])
charge_usage(p, ARGV[1], space, tonumber(ARGV[4]), tonumber(ARGV[6]))
redis.call('ZREM', p .. 'inflight', ARGV[1])
redis.call('HDEL', p .. 'missing', ARGV[1])
redis.call('ZADD', p .. 'active', ARGV[4], space)
if ARGV[3] == '' then
  redis.call('HDEL', p .. 'stage', ARGV[1])
  redis.call('HDEL', p .. 'space', ARGV[1])
  redis.call('HDEL', p .. 'correlation', ARGV[1])
  return 1
end
redis.call('HSET', p .. 'stage', ARGV[1], ARGV[3])
redis.call('LPUSH', p .. 'ready:' .. space, ARGV[1])
if redis.call('SADD', p .. 'ringset', space) == 1 then redis.call('RPUSH', p .. 'ring', space) end
return 1
"""
)

# ARGV: job, prefix, now, usage half-life. Drops every trace of a job (finished, failed, purged).
_FORGET = (
    _USAGE
    + """
local p = ARGV[2]
local space = redis.call('HGET', p .. 'space', ARGV[1])
charge_usage(p, ARGV[1], space, tonumber(ARGV[3]), tonumber(ARGV[4]))
local was_running = redis.call('ZREM', p .. 'inflight', ARGV[1])
if space and was_running == 0 then
  redis.call('LREM', p .. 'ready:' .. space, 0, ARGV[1])
  if redis.call('LLEN', p .. 'ready:' .. space) == 0 then
    redis.call('SREM', p .. 'ringset', space)
    redis.call('LREM', p .. 'ring', 0, space)
  end
end
redis.call('HDEL', p .. 'stage', ARGV[1])
redis.call('HDEL', p .. 'space', ARGV[1])
redis.call('HDEL', p .. 'correlation', ARGV[1])
redis.call('HDEL', p .. 'missing', ARGV[1])
return was_running
"""
)

# ARGV: job, prefix. A dispatched stage whose message was lost goes back to the front of its space's list.
_REQUEUE = """
local p = ARGV[2]
if redis.call('ZREM', p .. 'inflight', ARGV[1]) == 0 then return 0 end
redis.call('HDEL', p .. 'missing', ARGV[1])
local space = redis.call('HGET', p .. 'space', ARGV[1])
redis.call('LPUSH', p .. 'ready:' .. space, ARGV[1])
if redis.call('SADD', p .. 'ringset', space) == 1 then redis.call('RPUSH', p .. 'ring', space) end
return 1
"""

# (job id, stage, space, correlation id): sends the stage's Celery message.
Publish = Callable[[str, str, str, str], None]
# The one stage of a consolidation run (workers/tasks/consolidate.py); an ingest job's stages are workers.jobs.STAGES.
CONSOLIDATION = "consolidation"


def next_stage(stage: str) -> str:
    """The stage after `stage`, '' after the last."""
    index = STAGES.index(stage)
    return STAGES[index + 1] if index + 1 < len(STAGES) else ""


class Scheduler:
    def __init__(self, client: redis.Redis, settings: WorkerSettings, publish: Publish, queues: Iterable[str]) -> None:
        self._redis = client
        self._settings = settings
        self._publish = publish
        self._queues = list(queues)
        self._scripts = {
            name: client.register_script(source)
            for name, source in (
                ("enqueue", _ENQUEUE),
                ("dispatch", _DISPATCH),
                ("advance", _ADVANCE),
                ("forget", _FORGET),
                ("requeue", _REQUEUE),
            )
        }

    def submit(self, job_id: str, space: str, correlation: str = "", stage: str = STAGES[0]) -> None:
        """Schedules a new job's first stage (behind its space's other jobs) and hands out free slots."""
        if correlation:
            self._redis.hset(CORRELATION, job_id, correlation)
        self._enqueue(job_id, space, stage, front=False)
        self.dispatch()

    def _enqueue(self, job_id: str, space: str, stage: str, front: bool) -> None:
        self._scripts["enqueue"](args=[job_id, space, stage, int(front), time.time(), PREFIX])

    def advance(self, job_id: str, stage: str, again: bool = False) -> bool:
        """After `stage` of the job ended well: its next stage (the same one `again`, after a time slice of it) waits
        at the front of its space's list (a started job is finished first), and free slots are handed out. False for
        a duplicate run of a stage."""
        args: list[str | float] = [
            job_id,
            stage,
            stage if again else next_stage(stage),
            time.time(),
            PREFIX,
            self._settings.usage_half_life_s,
        ]
        moved = bool(self._scripts["advance"](args=args))
        self.dispatch()
        return moved

    def finish(self, job_id: str, stage: str) -> bool:
        """A job's last (or only) stage ended: it leaves the scheduler and its slot is handed out. False for a
        duplicate run, or a job the scheduler does not hold."""
        args: list[str | float] = [job_id, stage, "", time.time(), PREFIX, self._settings.usage_half_life_s]
        moved = bool(self._scripts["advance"](args=args))
        self.dispatch()
        return moved

    def forget(self, job_id: str) -> None:
        """A job finished for good (failed, purged): it leaves the scheduler and its slot is handed out."""
        self._scripts["forget"](args=[job_id, PREFIX, time.time(), self._settings.usage_half_life_s])
        self.dispatch()

    def current_stage(self, job_id: str) -> str | None:
        """The stage the scheduler holds the job at (waiting or dispatched); None for a job it does not hold."""
        stage = self._redis.hget(STAGE, job_id)
        return stage.decode() if isinstance(stage, bytes) else None

    def dispatch(self) -> list[tuple[str, str]]:
        """Hands out free slots and publishes a message for each stage given one; returns (job id, stage) pairs."""
        worker = self._settings
        args: list[str | float] = [
            time.time(),
            worker.space_share,
            worker.borrow_after_idle_s,
            PREFIX,
            worker.usage_half_life_s,
        ]
        flat = self._scripts["dispatch"](args=args)
        pairs = [(flat[i].decode(), flat[i + 1].decode()) for i in range(0, len(flat), 2)]
        for job_id, stage in pairs:
            correlation, space = self._redis.hget(CORRELATION, job_id), self._redis.hget(SPACE, job_id)
            try:
                self._publish(job_id, stage, _text(space), _text(correlation))
            except Exception:
                # The stage is dispatched without a message: the reconciler finds it missing and requeues it.
                log.exception("ingest job %s: stage %s could not be queued; the reconciler requeues it", job_id, stage)
        return pairs

    def register_worker(self, hostname: str, concurrency: int) -> None:
        ttl = 3 * self._settings.reconcile_interval_s
        pipe = self._redis.pipeline(transaction=True)
        pipe.hset(SLOTS, hostname, concurrency)
        pipe.zadd(WORKERS, {hostname: time.time() + ttl})
        pipe.set(LAST_SEEN, time.time())
        pipe.execute()

    def workers_seen(self, now: float | None = None) -> tuple[int, float | None]:
        """How many workers are alive (their registration not expired), and when any worker last announced itself
        (None: never, since Redis was last emptied)."""
        now = time.time() if now is None else now
        pipe = self._redis.pipeline(transaction=False)
        pipe.zcount(WORKERS, f"({now}", "+inf")
        pipe.get(LAST_SEEN)
        alive, last = pipe.execute()
        return int(alive), float(last) if last is not None else None

    def release_orphaned(self, now: float | None = None) -> int:
        """With no worker alive, the stages dispatched to dead workers hold their spaces' slots (what `dispatch`
        charges a space) until a worker comes back and its broker redelivers them. Past `orphan_release_s` since
        their dispatch, they go back to the front of their spaces' lists instead: nothing is held for a dead worker
        longer than that, whether or not one comes back (a redelivered message of such a stage is a duplicate run,
        which moves nothing). The API runs this; a live worker's reconciler does its own pass. Returns how many."""
        now = time.time() if now is None else now
        if self.workers_seen(now)[0] > 0:
            return 0
        cutoff = now - self._settings.orphan_release_s
        orphaned: list[bytes] = self._redis.zrangebyscore(INFLIGHT, "-inf", cutoff)  # type: ignore[assignment]
        released = sum(int(self._scripts["requeue"](args=[raw.decode(), PREFIX])) for raw in orphaned)
        if released:
            log.warning("%d stage(s) dispatched to workers that died were put back in their spaces' lists", released)
        return released

    def unregister_worker(self, hostname: str) -> None:
        pipe = self._redis.pipeline(transaction=True)
        pipe.zrem(WORKERS, hostname)
        pipe.hdel(SLOTS, hostname)
        pipe.execute()

    def live_messages(self) -> set[str]:
        """Job ids with an ingest stage message in a queue or taken by a worker and not acknowledged."""
        raw: list[bytes] = []
        for queue in self._queues:
            for name in (queue, *(f"{queue}{PRIORITY_SEPARATOR}{step}" for step in (3, 6, 9))):
                raw += self._redis.lrange(name, 0, -1)  # type: ignore[arg-type]
        held: list[bytes] = self._redis.hvals(UNACKED)  # type: ignore[assignment]
        messages: list[Any] = [json.loads(item) for item in raw]
        messages += [json.loads(item)[0] for item in held]
        jobs: set[str] = set()
        for message in messages:
            headers = message.get("headers", {})
            if headers.get("task") == CONSOLIDATION_TASK:  # its job id is its task id
                jobs.add(str(headers.get("id", "")))
            elif str(headers.get("task", "")).startswith("engram.ingest."):
                body = message.get("body", "")
                if message.get("properties", {}).get("body_encoding") == "base64":
                    body = base64.b64decode(body)
                args = json.loads(body)[0]
                if args:
                    jobs.add(str(args[0]))
        return jobs

    def reconcile(self, store: JobStore, now: float | None = None) -> dict[str, int]:
        """One pass of the reconciler (see the module's docstring); returns what it did, by kind."""
        now = time.time() if now is None else now
        grace = self._settings.lost_message_grace_s
        done = {"requeued": 0, "forgotten": 0, "released": 0, "adopted": 0}
        live = self.live_messages()
        held: dict[bytes, bytes] = self._redis.hgetall(STAGE)  # type: ignore[assignment]
        for raw_job, raw_stage in held.items():
            job_id = raw_job.decode()
            # A consolidation run has no job record: it leaves when its task ends (or is requeued when lost).
            if raw_stage.decode() != CONSOLIDATION and not store.unfinished(job_id):
                self._scripts["forget"](args=[job_id, PREFIX, time.time(), self._settings.usage_half_life_s])
                done["forgotten"] += 1
        inflight: list[tuple[bytes, float]] = self._redis.zrange(INFLIGHT, 0, -1, withscores=True)  # type: ignore[assignment]
        for raw_job, dispatched in inflight:
            job_id = raw_job.decode()
            if job_id in live or dispatched > now - grace:
                self._redis.hdel(MISSING, job_id)
                continue
            missing_since = self._redis.hget(MISSING, job_id)
            if missing_since is None:
                self._redis.hset(MISSING, job_id, now)
            elif float(missing_since) <= now - grace and self._scripts["requeue"](args=[job_id, PREFIX]):
                log.warning("ingest job %s: its stage's message was lost; the stage is queued again", job_id)
                done["requeued"] += 1
        for key in self._redis.scan_iter(PENDING_PATTERN):
            charges: dict[bytes, bytes] = self._redis.hgetall(key)  # type: ignore[assignment]
            for raw_job in charges:
                job_id = raw_job.decode()
                status = _status(store, job_id)
                if status is None or status.state in (JobState.SUCCEEDED, JobState.FAILED):
                    self._redis.hdel(key, job_id)
                    done["released"] += 1
                elif (
                    self._redis.hexists(STAGE, job_id) == 0
                    and job_id not in live
                    and _age_s(status.created_at, now) > grace
                ):
                    stage = next((s for s in STAGES if s not in status.stages_done), STAGES[-1])
                    self._enqueue(job_id, status.space, stage, front=True)
                    log.warning("ingest job %s: nobody scheduled it; its stage %s is queued", job_id, stage)
                    done["adopted"] += 1
        self.dispatch()
        return done

    def reconcile_once(self, store: JobStore) -> dict[str, int] | None:
        """`reconcile` unless another process is at it (the lock outlives a killed holder by a few seconds)."""
        lock_s = max(1, int(self._settings.reconcile_interval_s))
        if not self._redis.set(RECONCILE_LOCK, "1", nx=True, ex=lock_s):
            return None
        try:
            return self.reconcile(store)
        finally:
            self._redis.delete(RECONCILE_LOCK)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else ""


def _status(store: JobStore, job_id: str) -> Any:
    try:
        return store.status(job_id)
    except UnknownJob:
        return None


def _age_s(iso: str, now: float) -> float:
    from datetime import datetime

    return now - datetime.fromisoformat(iso).timestamp()


class SchedulerHeartbeat:
    """In a worker's main process: announces its slots and runs the reconciler, every `reconcile_interval_s`."""

    def __init__(self, make: Callable[[], tuple[Scheduler, JobStore]], hostname: str, concurrency: int) -> None:
        self._make = make
        self._hostname = hostname
        self._concurrency = concurrency
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="scheduler heartbeat", daemon=True)
        self._scheduler: Scheduler | None = None

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)
        if self._scheduler is not None:
            with contextlib.suppress(redis.exceptions.RedisError):  # its registration expires on its own
                self._scheduler.unregister_worker(self._hostname)

    def _run(self) -> None:
        interval = 1.0
        while True:
            try:
                if self._scheduler is None:
                    self._scheduler, store = self._make()
                else:
                    store = self._make()[1]
                interval = self._scheduler._settings.reconcile_interval_s
                self._scheduler.register_worker(self._hostname, self._concurrency)
                self._scheduler.reconcile_once(store)
            except Exception as exc:  # Redis down, a message it could not read: the next beat tries again
                log.warning("scheduler heartbeat: %s; tried again at the next beat", exc)
            if self._stop.wait(interval):
                return
