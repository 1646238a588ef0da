#!/usr/bin/env bash
# The test command: install what is missing, start Neo4j, Redis and a worker, run the tests against them,
# and stop everything this script started, also when tests fail. Extra arguments go to pytest.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
"$ENGRAM_ROOT/infra/install.sh"
# The API started for the tests gets an admin key that only this run knows (tests create spaces with it).
export ENGRAM_API_ADMIN_KEY="${ENGRAM_API_ADMIN_KEY:-test-admin-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')}"
trap '"$ENGRAM_ROOT/infra/stack.sh" down || true' EXIT
"$ENGRAM_ROOT/infra/stack.sh" up
cd "$ENGRAM_ROOT"
"$ENGRAM_VENV/bin/python" -m pytest -ra "$@"
