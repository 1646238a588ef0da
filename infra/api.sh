#!/usr/bin/env bash
# Start, stop or report the GraphQL API (uvicorn) on 127.0.0.1:$ENGRAM_API_PORT (default 8000).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
API_DIR="$ENGRAM_STATE/api"
PID="$API_DIR/api.pid"
export ENGRAM_API_PORT="${ENGRAM_API_PORT:-8000}"
cd "$ENGRAM_ROOT"

start() {
  if pid_alive "$PID"; then log "api already running (pid $(cat "$PID"))"; return 0; fi
  mkdir -p "$API_DIR"
  ensure_admin_key
  log "starting the GraphQL API on http://127.0.0.1:$ENGRAM_API_PORT/graphql"
  # Its own process group (setsid): stopping it reaches uvicorn's worker processes even if the master died first.
  nohup setsid "$ENGRAM_VENV/bin/python" -m app.api.server >"$API_DIR/api.log" 2>&1 &
  echo $! >"$PID"
  # Up means ready (/readyz: Neo4j, Redis, the model, recall warm), not merely listening. Each process loads its
  # model before it takes connections, and uvicorn's supervisor waits ENGRAM_API_PROCESS_HEALTHCHECK_TIMEOUT_S for
  # a process's ping while it does: on a busy machine that takes minutes, not seconds, so the wait is long.
  local budget="${ENGRAM_API_START_TIMEOUT_S:-300}" started=$SECONDS said=0
  until curl -fsS -m 30 "http://127.0.0.1:$ENGRAM_API_PORT/readyz" >/dev/null 2>&1; do
    pid_alive "$PID" || die "the API exited while starting (log: $API_DIR/api.log)"
    [ $((SECONDS - started)) -lt "$budget" ] \
      || die "the API was not ready within $budget s (ENGRAM_API_START_TIMEOUT_S; log: $API_DIR/api.log)"
    if [ $((SECONDS - started)) -ge $((said + 30)) ]; then
      said=$((SECONDS - started)); log "api: still starting after ${said} s (loading the model, warming recall)"
    fi
    sleep 1
  done
  log "api up and ready (pid $(cat "$PID"), $((SECONDS - started)) s)"
}

stop() {
  local pid
  pid="$(cat "$PID" 2>/dev/null || true)"
  if [ -n "$pid" ] && kill -0 -- "-$pid" 2>/dev/null; then  # the API's process group: master and workers
    kill -TERM -- "-$pid" 2>/dev/null || true
    for _ in $(seq 1 150); do kill -0 -- "-$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 -- "-$pid" 2>/dev/null; then log "api did not stop in 30s: killing"; kill -KILL -- "-$pid" 2>/dev/null || true; fi
    rm -f "$PID"; log "api stopped"
  else
    stop_pid "$PID" api 30  # started before it had a group of its own
  fi
}

case "${1:-status}" in
  start) start ;;
  stop) stop ;;
  status) if pid_alive "$PID"; then echo "api: running (pid $(cat "$PID"))"; else echo "api: stopped"; exit 3; fi ;;
  *) die "usage: api.sh start|stop|status" ;;
esac
