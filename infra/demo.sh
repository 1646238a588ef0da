#!/usr/bin/env bash
# The main job: install what is missing, start the stack, ingest a sample (conversation, document,
# trajectory) through the worker into space `demo`, show what was learnt, and check every part.
# The stack stays up afterwards (stop it with `make down`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
"$ENGRAM_ROOT/infra/install.sh"
"$ENGRAM_ROOT/infra/stack.sh" up
cd "$ENGRAM_ROOT"
"$ENGRAM_VENV/bin/engram" ingest examples/sample.jsonl --space demo
"$ENGRAM_VENV/bin/engram" recall "What did Maya make for her sister?" --space demo --budget 256
"$ENGRAM_VENV/bin/engram" recall "How do I cook the spaghetti?" --space demo --budget 256
"$ENGRAM_VENV/bin/engram" doctor
echo
echo "Neo4j Browser: http://127.0.0.1:$NEO4J_HTTP_PORT/browser/  (user neo4j, password in NEO4J_PASSWORD, default engram-dev-password)"
echo "Try: MATCH (p:Proposition {space: 'demo'})-[:PROVEN_BY]->(e:Episode) RETURN p, e"
