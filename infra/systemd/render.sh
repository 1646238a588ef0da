#!/usr/bin/env bash
# Write this checkout's systemd units (infra/systemd/*.service, engram.target) into DEST (default
# /etc/systemd/system) with its paths in place of the @...@ markers:
#   @ENGRAM_ROOT@ (this checkout), @ENGRAM_STATE@ (ENGRAM_STATE, default .engram), @ENGRAM_VENV@, @USER@
#   (ENGRAM_SERVICE_USER, default the caller).
# Then, on a host: systemctl daemon-reload && systemctl enable --now engram-neo4j engram-redis ... (the units that
# host runs; docs/operations.md). Only the stores' units on the store host, only engram-api on an API host, and so on.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
dest="${1:-/etc/systemd/system}"
user="${ENGRAM_SERVICE_USER:-$(id -un)}"
mkdir -p "$dest"
for unit in "$ENGRAM_ROOT"/infra/systemd/*.service "$ENGRAM_ROOT"/infra/systemd/*.target; do
  sed -e "s#@ENGRAM_ROOT@#$ENGRAM_ROOT#g" -e "s#@ENGRAM_STATE@#$ENGRAM_STATE#g" \
    -e "s#@ENGRAM_VENV@#$ENGRAM_VENV#g" -e "s#@USER@#$user#g" "$unit" >"$dest/$(basename "$unit")"
  echo "$dest/$(basename "$unit")"
done
