"""A real task crosses Redis to the real worker process and its result comes back."""

from __future__ import annotations

import os

import numpy as np
import psutil

from engram.embedding import get_embedder
from engram.settings import EngramSettings
from workers.tasks.embedding import embed_texts
from workers.tasks.system import worker_info


def test_task_runs_in_the_worker_process(settings: EngramSettings) -> None:
    info = worker_info.delay().get(timeout=60)
    assert info["pid"] != os.getpid()
    worker_pid = int((settings.state_dir / "worker" / "worker.pid").read_text())
    # Celery's prefork pool: the task ran in a child of the worker's main process.
    assert info["pid"] == worker_pid or info["ppid"] == worker_pid
    assert psutil.Process(info["pid"]).is_running()


def test_embedding_task_matches_local_embeddings() -> None:
    texts = ["Caroline went to the LGBTQ support group", "Melanie painted a sunrise"]
    remote = np.array(embed_texts.delay(texts).get(timeout=120), dtype=np.float32)
    local = get_embedder().encode(texts)
    assert remote.shape == (2, 384)
    assert np.allclose(remote, local, atol=1e-4)


def test_a_killed_workers_restore_lock_expires_in_a_minute(settings: EngramSettings) -> None:
    """Unacknowledged messages of a dead worker are restored under a Redis lock; a worker killed while holding it
    blocks every restore until the lock expires (kombu's default: 5 minutes). Kombu ignores transport options it
    does not know, so the setting is read back from kombu's own channel."""
    from workers.celery_app import app as celery_app

    with celery_app.connection_for_write() as connection:
        channel = connection.default_channel
        assert channel.unacked_mutex_expire == settings.worker.restore_lock_s == 60
        assert channel.visibility_timeout == settings.worker.visibility_timeout_s


def test_pool_processes_yield_the_cpu_to_the_api(settings: EngramSettings) -> None:
    """Jobs run at the worker's configured niceness, so a burst of ingestion does not slow every tenant's recall;
    the worker's main process (message re-stamping, pings) keeps its priority."""
    assert settings.worker.nice > 0
    info = worker_info.delay().get(timeout=60)
    worker_pid = int((settings.state_dir / "worker" / "worker.pid").read_text())
    assert info["pid"] != worker_pid
    assert psutil.Process(info["pid"]).nice() == info["nice"] == settings.worker.nice
    assert psutil.Process(worker_pid).nice() < settings.worker.nice


def test_pool_processes_share_the_cores_between_them(settings: EngramSettings) -> None:
    """Each pool process's torch and BLAS use cores / concurrency threads: two jobs side by side never have more
    math threads than there are cores, each of them spinning for a core the API needs."""
    expected = settings.worker.math_threads or max(1, (os.cpu_count() or 1) // settings.worker.concurrency)
    info = worker_info.delay().get(timeout=60)
    assert info["math_threads"] == {"torch": expected, "blas": expected, "openmp": expected}
