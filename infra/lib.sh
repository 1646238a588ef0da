# Shared helpers and locations for Engram's infra scripts (sourced, not executed).
ENGRAM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# All server state (jars, data, logs, pids) lives in one git-ignored folder.
ENGRAM_STATE="${ENGRAM_STATE:-$ENGRAM_ROOT/.engram}"
ENGRAM_VENV="${ENGRAM_VENV:-$HOME/.cache/engram/venv}"
export ENGRAM_CODEGEN_VENV="${ENGRAM_CODEGEN_VENV:-$HOME/.cache/engram/codegen-venv}"
ARIADNE_CODEGEN_VERSION=0.19.0
NEO4J_HOME_DIR="$ENGRAM_STATE/neo4j"
NEO4J_PASSWORD="${NEO4J_PASSWORD:-engram-dev-password}"
NEO4J_HEAP="${NEO4J_HEAP:-2g}"
NEO4J_PAGECACHE="${NEO4J_PAGECACHE:-1g}"  # raise for large graphs (the 1M latency bench: 4g)
NEO4J_HTTP_PORT="${NEO4J_HTTP_PORT:-7474}"
NEO4J_BOLT_PORT="${NEO4J_BOLT_PORT:-7687}"
REDIS_PORT="${REDIS_PORT:-6379}"
REDIS_DIR="$ENGRAM_STATE/redis"
WORKER_DIR="$ENGRAM_STATE/worker"

# The operator's admin key (createSpace, deleteSpace): ENGRAM_API_ADMIN_KEY when set, else the one kept in the state
# folder, made there (mode 0600) the first time, so that `make demo` followed by the README's quickstart works with
# no variable set. A stack with no admin key could not create a space over the API at all.
ADMIN_KEY_FILE="$ENGRAM_STATE/admin-key"
ensure_admin_key() {
  if [ -n "${ENGRAM_API_ADMIN_KEY:-}" ]; then return 0; fi
  if [ ! -s "$ADMIN_KEY_FILE" ]; then
    mkdir -p "$ENGRAM_STATE"
    (umask 077 && head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$ADMIN_KEY_FILE")
    log "made an admin key: $ADMIN_KEY_FILE (mode 0600)"
  fi
  chmod 600 "$ADMIN_KEY_FILE"
  ENGRAM_API_ADMIN_KEY="$(cat "$ADMIN_KEY_FILE")"
  export ENGRAM_API_ADMIN_KEY
}

log() { printf '[engram] %s\n' "$*" >&2; }
die() { printf '[engram] error: %s\n' "$*" >&2; exit 1; }

# pid_alive FILE: true when FILE names a running process.
pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# stop_pid FILE NAME [SECONDS]: TERM, wait, then KILL.
stop_pid() {
  local file="$1" name="$2" wait_s="${3:-30}" pid
  if ! pid_alive "$file"; then rm -f "$file"; log "$name not running"; return 0; fi
  pid="$(cat "$file")"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 $((wait_s * 5))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then log "$name did not stop in ${wait_s}s: killing"; kill -KILL "$pid" 2>/dev/null || true; fi
  rm -f "$file"; log "$name stopped"
}

# wait_for NAME SECONDS CMD...: poll CMD until it succeeds.
wait_for() {
  local name="$1" secs="$2"; shift 2
  for _ in $(seq 1 $((secs * 2))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done
  return 1
}
