#!/usr/bin/env bash
# The main job: install what is missing, start the stack (Neo4j, Redis, worker, GraphQL API), then do what a
# frontend does: ingest a sample (conversation, document, trajectory) into space `demo` through the GraphQL
# API, follow the job over the subscription, recall answers with their provenance (one question counts over every
# matching memory: its aggregate), bring memories up for a remark (associate), run an agent loop over MCP,
# and check every part.
# The stack stays up afterwards (stop it with `make down`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export ENGRAM_API_DEVELOPMENT="${ENGRAM_API_DEVELOPMENT:-1}"  # GraphiQL and introspection, for a local demo
"$ENGRAM_ROOT/infra/install.sh"
"$ENGRAM_ROOT/infra/stack.sh" up
cd "$ENGRAM_ROOT"
"$ENGRAM_VENV/bin/python" -m app.demos.api_demo examples/sample.jsonl --space demo \
  "What did Maya make for her sister?" "How do I cook the spaghetti?" "How many pottery classes did Maya start?" \
  --remark "Leo is lacing up his running shoes again this morning."
# The agents' door: an agent loop that recalls and remembers through the MCP tools at /mcp.
"$ENGRAM_VENV/bin/python" -m app.demos.mcp_demo --space demo
"$ENGRAM_VENV/bin/engram" doctor
echo
if [ -z "${ENGRAM_API_ADMIN_KEY:-}" ] && [ -s "$ADMIN_KEY_FILE" ]; then
  echo "Admin key (creates and deletes spaces; the README's quickstart reads it from there): $ADMIN_KEY_FILE"
  echo "  export ENGRAM_API_ADMIN_KEY=\$(cat $ADMIN_KEY_FILE)"
fi
echo "Neo4j Browser: http://127.0.0.1:$NEO4J_HTTP_PORT/browser/  (user neo4j, password in NEO4J_PASSWORD, default engram-dev-password)"
echo "Try: MATCH (p:Proposition {space: 'demo'})-[:PROVEN_BY]->(e:Episode) RETURN p, e   (or: engram browser -s demo)"
