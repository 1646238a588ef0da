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
  log "starting the GraphQL API on http://127.0.0.1:$ENGRAM_API_PORT/graphql"
  nohup "$ENGRAM_VENV/bin/python" -m app.api.server >"$API_DIR/api.log" 2>&1 &
  echo $! >"$PID"
  wait_for api 90 curl -fsS -m 5 "http://127.0.0.1:$ENGRAM_API_PORT/healthz" \
    || die "the API did not answer /healthz within 90 s (log: $API_DIR/api.log)"
  log "api up (pid $(cat "$PID"))"
}

case "${1:-status}" in
  start) start ;;
  stop)
    # uvicorn stops its worker processes on TERM; should it be killed instead, they must not keep the port.
    children="$(pid_alive "$PID" && pgrep -P "$(cat "$PID")" || true)"
    stop_pid "$PID" api 30
    for child in $children; do kill -KILL "$child" 2>/dev/null || true; done ;;
  status) if pid_alive "$PID"; then echo "api: running (pid $(cat "$PID"))"; else echo "api: stopped"; exit 3; fi ;;
  *) die "usage: api.sh start|stop|status" ;;
esac
