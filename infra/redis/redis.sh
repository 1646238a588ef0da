#!/usr/bin/env bash
# Start, stop or report the project's Redis (Debian's redis-server) on 127.0.0.1 with a project-local dir.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
PID="$REDIS_DIR/redis.pid"

ping() { redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping | grep -q PONG; }

start() {
  command -v redis-server >/dev/null || die "redis-server not found: apt-get install redis-server (or run infra/install.sh)"
  if pid_alive "$PID"; then log "redis already running (pid $(cat "$PID"))"; return 0; fi
  if ping 2>/dev/null; then die "port $REDIS_PORT already has a Redis that is not ours: stop it or set REDIS_PORT"; fi
  mkdir -p "$REDIS_DIR"
  redis-server "$ENGRAM_ROOT/infra/redis/redis.conf" --port "$REDIS_PORT" --dir "$REDIS_DIR" \
    --pidfile "$PID" --logfile "$REDIS_DIR/redis.log" --daemonize yes
  wait_for redis 30 ping || die "redis did not answer on 127.0.0.1:$REDIS_PORT (log: $REDIS_DIR/redis.log)"
  log "redis up on 127.0.0.1:$REDIS_PORT (pid $(cat "$PID"))"
}

case "${1:-status}" in
  start) start ;;
  stop) stop_pid "$PID" redis 20 ;;
  status) if pid_alive "$PID" && ping; then echo "redis: running (pid $(cat "$PID"))"; else echo "redis: stopped"; exit 3; fi ;;
  *) die "usage: redis.sh start|stop|status" ;;
esac
