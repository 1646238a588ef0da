#!/usr/bin/env bash
# The test command: install what is missing, start a stack of its own (Neo4j, Redis, a worker, the API) on the test
# ports with the test state folder, run the tests against it, and stop that stack again, also when tests fail.
# A stack the user runs (`make demo` / `make up`: default ports, .engram/) is neither used nor stopped.
# Extra arguments go to pytest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# The test stack's place, whatever the shell says about the user's stack (ENGRAM_STATE, NEO4J_URI, REDIS_PORT, ...).
# ENGRAM_TEST_STATE and ENGRAM_TEST_*_PORT move it, e.g. when another program holds one of these ports.
export ENGRAM_STATE="${ENGRAM_TEST_STATE:-$root/.engram-test}"
export NEO4J_BOLT_PORT="${ENGRAM_TEST_NEO4J_BOLT_PORT:-17687}"
export NEO4J_HTTP_PORT="${ENGRAM_TEST_NEO4J_HTTP_PORT:-17474}"
export REDIS_PORT="${ENGRAM_TEST_REDIS_PORT:-16379}"
export ENGRAM_API_PORT="${ENGRAM_TEST_API_PORT:-18000}"
# The same place for the Python side (engram/settings.py), which the services, the CLI and the tests read; the
# environment wins over a .env file. The password is the test stack's own (set on its first start).
export ENGRAM_STATE_DIR="$ENGRAM_STATE"
# ENGRAM_TEST_NEO4J_SCHEME=neo4j runs the whole stack and the tests with routing (as on a cluster or Aura: reads as
# READ, bookmarks shared through Redis: graph/routing.py) against the one test server.
export NEO4J_URI="${ENGRAM_TEST_NEO4J_SCHEME:-bolt}://127.0.0.1:$NEO4J_BOLT_PORT" NEO4J_USER=neo4j NEO4J_DATABASE=neo4j
export NEO4J_PASSWORD="${ENGRAM_TEST_NEO4J_PASSWORD:-engram-test-password}"
export REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
export ENGRAM_API_HOST=127.0.0.1
# Tells the tests they run in the test command's stack (tests/e2e/test_two_commands.py checks they do).
export ENGRAM_TEST_STACK="$ENGRAM_STATE"
source "$root/infra/lib.sh"
stack="$ENGRAM_ROOT/infra/stack.sh"
if [ "$ENGRAM_STATE" -ef "$ENGRAM_ROOT/.engram" ]; then die "ENGRAM_TEST_STATE is the user's state folder (.engram)"; fi

# One run at a time per test state folder: a second would share (and then stop) the first one's stack.
# The services and pytest do not inherit the lock (9>&-), so it is released when this script ends, however it ends.
mkdir -p "$ENGRAM_STATE"
exec 9>"$ENGRAM_STATE/test.lock"
if command -v flock >/dev/null && ! flock -n 9; then
  die "another test run is using $ENGRAM_STATE: wait for it (or set ENGRAM_TEST_STATE and ENGRAM_TEST_*_PORT)"
fi

# A test stack an interrupted run left running has that run's settings (its API another admin key): stop it.
for pid_file in neo4j/run/engram-neo4j.pid redis/redis.pid worker/worker.pid api/api.pid; do
  if pid_alive "$ENGRAM_STATE/$pid_file"; then
    log "stopping the test stack an earlier run left running ($ENGRAM_STATE)"
    "$stack" down 9>&-
    break
  fi
done

"$ENGRAM_ROOT/infra/install.sh" 9>&-
# The API started for the tests gets an admin key that only this run knows (tests create spaces with it).
export ENGRAM_API_ADMIN_KEY="${ENGRAM_API_ADMIN_KEY:-test-admin-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')}"
# Kept in the test state folder too, where a stack started without the variable keeps its own (infra/lib.sh): the
# quickstart's newcomer run (make demo, then the README with no variable set) reads it there.
(umask 077 && printf '%s' "$ENGRAM_API_ADMIN_KEY" >"$ADMIN_KEY_FILE") && chmod 600 "$ADMIN_KEY_FILE"
trap '"$stack" down 9>&- || true' EXIT
trap 'exit 143' TERM
log "test stack: state $ENGRAM_STATE, bolt $NEO4J_BOLT_PORT, http $NEO4J_HTTP_PORT, redis $REDIS_PORT, api $ENGRAM_API_PORT"
"$stack" up 9>&-
cd "$ENGRAM_ROOT"
"$ENGRAM_VENV/bin/python" -m pytest -ra "$@" 9>&-
