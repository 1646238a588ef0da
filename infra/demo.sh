#!/usr/bin/env bash
# The main job: install what is missing, start the stack, and show that every part answers.
# The stack stays up afterwards (stop it with `make down`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
"$ENGRAM_ROOT/infra/install.sh"
"$ENGRAM_ROOT/infra/stack.sh" up
"$ENGRAM_VENV/bin/engram" doctor
