#!/usr/bin/env bash
# The README's two commands in a row (issue 47), checked by hand: a user's stack up on the default ports (as
# `make demo` leaves it; started here with `infra/stack.sh up` when it is not, without the demo's ingest), then the
# test command, then: the tests passed, the user's stack is still up with the very same processes, and the test
# command's own stack is stopped. Arguments go to pytest (default: the two-commands test and the metrics test, which
# need this run's admin key), e.g. `bash tests/support/two_commands.sh tests/e2e/mcp`.
# The user's stack stays up afterwards, as after `make demo` (`make down` stops it).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
# The user's stack: the default places, whatever this shell says about test or other stacks.
unset ENGRAM_STATE ENGRAM_STATE_DIR NEO4J_BOLT_PORT NEO4J_HTTP_PORT NEO4J_URI REDIS_PORT REDIS_URL ENGRAM_API_PORT \
  ENGRAM_API_ADMIN_KEY ENGRAM_TEST_STACK
pids() {  # the user's stack's processes, from its pid files
  local f
  for f in neo4j/run/engram-neo4j.pid redis/redis.pid worker/worker.pid api/api.pid; do
    printf '%s=%s ' "$f" "$(cat ".engram/$f" 2>/dev/null || echo none)"
  done
}
fail() { printf '[two-commands] FAIL: %s\n' "$*" >&2; exit 1; }

if ! bash infra/stack.sh status >/dev/null; then
  echo "[two-commands] the user's stack is not (all) up: starting it on the default ports"
  bash infra/stack.sh up || fail "could not start the user's stack"
fi
bash infra/stack.sh status || fail "the user's stack is not up"
before="$(pids)"
echo "[two-commands] user's stack before: $before"

[ $# -gt 0 ] || set -- tests/e2e/test_two_commands.py tests/e2e/api/test_api_metrics.py
bash infra/test.sh "$@"
tests_rc=$?

echo "[two-commands] user's stack after the test command:"
bash infra/stack.sh status || fail "the test command left the user's stack not (all) running"
after="$(pids)"
[ "$before" = "$after" ] || fail "the user's stack's processes changed: before $before, after $after"
test_status="$(ENGRAM_STATE="${ENGRAM_TEST_STATE:-$root/.engram-test}" NEO4J_HTTP_PORT="${ENGRAM_TEST_NEO4J_HTTP_PORT:-17474}" \
  REDIS_PORT="${ENGRAM_TEST_REDIS_PORT:-16379}" bash infra/stack.sh status 2>&1)"
[ "$(grep -c ': stopped' <<<"$test_status")" = 4 ] || fail "the test stack was left running: $test_status"
[ "$tests_rc" = 0 ] || fail "the tests failed (pytest exit $tests_rc)"
echo "[two-commands] ok: the tests passed, the user's stack is up with the same processes, the test stack is stopped"
