#!/usr/bin/env bash
# Start, stop or report the Celery worker (queues: cpu, and gpu when ENGRAM_WORKER_QUEUES says so).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PID="$WORKER_DIR/worker.pid"
QUEUES="${ENGRAM_WORKER_QUEUES:-cpu,gpu}"
CONCURRENCY="${ENGRAM_WORKER_CONCURRENCY:-2}"
PY="$ENGRAM_VENV/bin"
cd "$ENGRAM_ROOT"

start() {
  if pid_alive "$PID"; then log "worker already running (pid $(cat "$PID"))"; return 0; fi
  mkdir -p "$WORKER_DIR"
  log "starting celery worker (queues $QUEUES, concurrency $CONCURRENCY)"
  (cd "$ENGRAM_ROOT" && "$PY/celery" -A workers.celery_app:app worker --queues "$QUEUES" \
    --concurrency "$CONCURRENCY" --hostname "engram@%h" --loglevel INFO \
    --pidfile "$PID" --logfile "$WORKER_DIR/worker.log" --detach)
  wait_for worker 90 "$PY/celery" -A workers.celery_app:app inspect ping --timeout 2 \
    || die "celery worker did not answer a ping within 90 s (log: $WORKER_DIR/worker.log)"
  log "worker up (pid $(cat "$PID"))"
}

case "${1:-status}" in
  start) start ;;
  stop) stop_pid "$PID" worker 60 ;;
  status) if pid_alive "$PID"; then echo "worker: running (pid $(cat "$PID"))"; else echo "worker: stopped"; exit 3; fi ;;
  *) die "usage: worker.sh start|stop|status" ;;
esac
