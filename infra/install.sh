#!/usr/bin/env bash
# Installs what Engram needs, idempotently: quick when everything is already there.
#   - Debian packages: Java 17, Maven, redis-server, curl, jq, Chromium + chromedriver (only when missing)
#   - a Python 3.11 virtualenv at $ENGRAM_VENV with the project (reinstalled when pyproject.toml changes)
#   - the embedding model's ONNX export in that virtualenv (re-exported when the weights or libraries change)
#   - the TypeScript client, its AI SDK integration and the memory inspector: `npm ci` from their lockfiles, then
#     their builds (each redone only when its lockfile or its sources changed)
#   - the Neo4j server home assembled from Maven Central (re-assembled when infra/neo4j/pom.xml changes)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
started=$(date +%s)

apt_updated=""
apt_install() {
  if [ "$(id -u)" != 0 ]; then die "missing $*: run as root or apt-get install $*"; fi
  [ -n "$apt_updated" ] || { log "apt-get update"; apt-get update -qq; apt_updated=1; }
  log "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

java_major() { java -version 2>&1 | sed -nE 's/.*version "([0-9]+).*/\1/p' | head -1; }
if ! command -v java >/dev/null || [ "$(java_major)" -lt 17 ]; then apt_install openjdk-17-jre-headless; fi
command -v mvn >/dev/null || apt_install maven
command -v redis-server >/dev/null || apt_install redis-server
command -v curl >/dev/null || apt_install curl
command -v systemd-analyze >/dev/null || apt_install systemd  # verifies infra/systemd/'s units (tests/unit/infra)
command -v jq >/dev/null || apt_install jq  # the README's quickstart reads GraphQL answers with it
# Node.js and npm (>= 20) for the TypeScript client and the inspector (clients/typescript, web/).
command -v npm >/dev/null || apt_install nodejs npm
# Headless Chromium and its WebDriver for the Neo4j Browser test (tests/e2e/test_browser.py).
{ command -v chromium >/dev/null && command -v chromedriver >/dev/null; } || apt_install chromium chromium-driver

# Python environment, keyed on the dependency list so a warm machine skips pip entirely.
# ENGRAM_EXTRAS adds optional extras (comma-separated), e.g. ENGRAM_EXTRAS=local-model (a real language model).
extras="dev${ENGRAM_EXTRAS:+,$ENGRAM_EXTRAS}"
py_stamp="$ENGRAM_VENV/.engram-deps-$({ cat "$ENGRAM_ROOT/pyproject.toml" "$ENGRAM_ROOT/clients/python/pyproject.toml"; echo "$extras"; } | sha256sum | cut -c1-16)"
if [ ! -x "$ENGRAM_VENV/bin/python" ]; then
  log "creating virtualenv $ENGRAM_VENV"
  mkdir -p "$(dirname "$ENGRAM_VENV")"
  python3.11 -m venv "$ENGRAM_VENV" 2>/dev/null || python3 -m venv "$ENGRAM_VENV"
fi
if [ ! -f "$py_stamp" ]; then
  log "installing Python dependencies (first time: several minutes, torch is large)"
  "$ENGRAM_VENV/bin/pip" install -q --upgrade pip
  # The typed client first: app/mcp imports it, and it is not a PyPI package.
  "$ENGRAM_VENV/bin/pip" install -q -e "$ENGRAM_ROOT/clients/python"
  "$ENGRAM_VENV/bin/pip" install -q -e "$ENGRAM_ROOT[$extras]"
  rm -f "$ENGRAM_VENV"/.engram-deps-*; touch "$py_stamp"
fi
# The editable install must point at this checkout (CI clones elsewhere); re-point it cheaply if not.
here=$(cd / && "$ENGRAM_VENV/bin/python" -c 'import app, engram_client, pathlib; print(pathlib.Path(app.__file__).resolve().parent.parent, pathlib.Path(engram_client.__file__).resolve().parent.parent.parent.parent)' 2>/dev/null || true)
if [ "$here" != "$ENGRAM_ROOT $ENGRAM_ROOT" ]; then
  other="${here%% *}"
  if [ -n "$other" ] && [ -d "$other/app" ] && [ ! "$other" -ef "$ENGRAM_ROOT" ]; then
    # Two checkouts, one venv: from now on the other checkout's `engram`, `app` and `engram_client` run this one's code.
    log "warning: $ENGRAM_VENV ran the checkout $other; it now runs $ENGRAM_ROOT, for both"
    log "  give each checkout its own: export ENGRAM_VENV=\$HOME/.cache/engram/venv-<name> before make (docs/operations.md)"
  fi
  log "pointing the editable installs at $ENGRAM_ROOT"
  "$ENGRAM_VENV/bin/pip" install -q --no-deps -e "$ENGRAM_ROOT/clients/python" -e "$ENGRAM_ROOT"
fi

# tests/e2e/test_wheel_install.py builds the wheel offline (no build isolation) with this venv's setuptools: 70.1 or
# later has bdist_wheel built in.
setuptools_new='import setuptools as s, sys; sys.exit(tuple(map(int, s.__version__.split(".")[:2])) < (70, 1))'
"$ENGRAM_VENV/bin/python" -c "$setuptools_new" 2>/dev/null || "$ENGRAM_VENV/bin/pip" install -q "setuptools>=70.1"

# The onnx embedding backend's graphs (fp32 and int8), exported from the installed model's weights: no download,
# stamped in the venv, so a warm machine only hashes the weights (engram/embedding_export.py, docs/embedding.md).
"$ENGRAM_VENV/bin/python" -m engram.embedding_export

# ariadne-codegen (regenerates clients/python/engram_client, and checks it for drift in the tests) needs a
# graphql-core older than strawberry's, so it lives in a venv of its own.
codegen_stamp="$ENGRAM_CODEGEN_VENV/.engram-codegen-$ARIADNE_CODEGEN_VERSION"
if [ ! -f "$codegen_stamp" ]; then
  log "creating the code generator's virtualenv $ENGRAM_CODEGEN_VENV"
  python3.11 -m venv "$ENGRAM_CODEGEN_VENV" 2>/dev/null || python3 -m venv "$ENGRAM_CODEGEN_VENV"
  "$ENGRAM_CODEGEN_VENV/bin/pip" install -q "ariadne-codegen==$ARIADNE_CODEGEN_VERSION"
  rm -f "$ENGRAM_CODEGEN_VENV"/.engram-codegen-*; touch "$codegen_stamp"
fi

# npm packages from the committed lockfiles, then the builds: a stamp of the lockfile's hash in node_modules, and of
# the build's inputs in its output folder, so a warm machine runs neither npm ci nor a build.
npm_ci() {
  local dir="$ENGRAM_ROOT/$1" stamp
  stamp="$dir/node_modules/.engram-lock-$(sha256sum "$dir/package-lock.json" | cut -c1-16)"
  if [ ! -f "$stamp" ]; then
    log "npm ci in $1"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    touch "$stamp"
  fi
}
npm_build() {  # folder, its output folder, then the inputs (files or folders, relative to the folder)
  local dir="$ENGRAM_ROOT/$1" out="$ENGRAM_ROOT/$2" stamp
  shift 2
  stamp="$out/.engram-build-$(cd "$dir" && find "$@" -type f ! -path '*/node_modules/*' -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
  if [ ! -f "$stamp" ]; then
    log "building ${dir#"$ENGRAM_ROOT"/}"
    (cd "$dir" && npm run -s build)
    rm -f "$out"/.engram-build-*; touch "$stamp"
  fi
}
npm_ci clients/typescript
npm_build clients/typescript clients/typescript/dist src package-lock.json tsconfig.json
if [ -f "$ENGRAM_ROOT/web/package-lock.json" ]; then
  npm_ci web
  npm_build web web/dist src index.html package-lock.json tsconfig.json vite.config.ts ../clients/typescript/dist
fi

# The Vercel AI SDK integration: @engram/client is a file: link to clients/typescript, built just above.
npm_ci clients/ai-sdk
npm_build clients/ai-sdk clients/ai-sdk/dist src package-lock.json tsconfig.json ../typescript/dist
# Neo4j server home from Maven Central (jars cached in ~/.m2, so a fresh clone re-assembles in seconds).
# Each state folder has its own home (.engram/neo4j for `make demo` / `make up`, .engram-test/neo4j for `make test`):
# one that another state folder of this checkout already assembled from the same pom gets hard links to its jars.
neo_stamp="$NEO4J_HOME_DIR/.engram-pom-$(sha256sum "$ENGRAM_ROOT/infra/neo4j/pom.xml" | cut -c1-16)"
if [ ! -f "$neo_stamp" ]; then
  pid_alive "$NEO4J_HOME_DIR/run/engram-neo4j.pid" && die "the Neo4j in $NEO4J_HOME_DIR must be re-assembled (pom.xml changed): stop it first (make down)"
  rm -rf "$NEO4J_HOME_DIR/lib" "$NEO4J_HOME_DIR/plugins"
  mkdir -p "$NEO4J_HOME_DIR"
  seed=""
  for other in "$ENGRAM_ROOT"/.engram*/neo4j; do
    if [ "$other" -ef "$NEO4J_HOME_DIR" ] || [ ! -f "$other/$(basename "$neo_stamp")" ]; then continue; fi
    for how in -al -a; do  # hard links; a copy where they cannot be made (never a copy over links: rm first)
      if cp "$how" "$other/lib" "$other/plugins" "$NEO4J_HOME_DIR/" 2>/dev/null; then seed="$other"; break 2; fi
      rm -rf "$NEO4J_HOME_DIR/lib" "$NEO4J_HOME_DIR/plugins"
    done
  done
  if [ -n "$seed" ]; then
    log "Neo4j jars for $NEO4J_HOME_DIR taken from $seed (same pom)"
  else
    log "assembling Neo4j from Maven Central into $NEO4J_HOME_DIR"
    (cd "$ENGRAM_ROOT/infra/neo4j" && mvn -B -q package -Dengram.neo4j.home="$NEO4J_HOME_DIR")
  fi
  rm -f "$NEO4J_HOME_DIR"/.engram-pom-*; touch "$neo_stamp"
fi
log "install complete in $(( $(date +%s) - started )) s"
