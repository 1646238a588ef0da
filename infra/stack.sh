#!/usr/bin/env bash
# Bring the whole local stack up or down: Neo4j (+ schema migrations), Redis, the Celery worker, the GraphQL API.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here="$ENGRAM_ROOT/infra"

case "${1:-status}" in
  up)
    "$here/neo4j/neo4j.sh" start
    "$here/redis/redis.sh" start
    "$ENGRAM_VENV/bin/engram" migrate
    "$here/worker.sh" start
    "$here/api.sh" start
    ;;
  down)
    rc=0
    "$here/api.sh" stop || rc=1
    "$here/worker.sh" stop || rc=1
    "$here/redis/redis.sh" stop || rc=1
    "$here/neo4j/neo4j.sh" stop || rc=1
    exit $rc
    ;;
  status)
    rc=0
    "$here/neo4j/neo4j.sh" status || rc=3
    "$here/redis/redis.sh" status || rc=3
    "$here/worker.sh" status || rc=3
    "$here/api.sh" status || rc=3
    exit $rc
    ;;
  *) die "usage: stack.sh up|down|status" ;;
esac
