#!/usr/bin/env bash
# Start, stop or report the project's Neo4j 5.26 Community server (assembled by infra/install.sh).
# Launches org.neo4j.server.CommunityEntryPoint directly, with the JVM flags the official launcher uses.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
H="$NEO4J_HOME_DIR"
PID="$H/run/engram-neo4j.pid"

http_ok() { curl -fs -m 5 -o /dev/null "http://127.0.0.1:$NEO4J_HTTP_PORT/"; }

start() {
  [ -f "$H/lib/neo4j-5.26.19.jar" ] || die "Neo4j is not assembled in $H: run infra/install.sh"
  if pid_alive "$PID"; then log "neo4j already running (pid $(cat "$PID"))"; return 0; fi
  if http_ok; then die "port $NEO4J_HTTP_PORT already serves something else: stop it or set NEO4J_HTTP_PORT"; fi
  mkdir -p "$H/conf" "$H/logs" "$H/run" "$H/data" "$H/tmp"
  cp "$ENGRAM_ROOT/infra/neo4j/conf/neo4j.conf" "$H/conf/neo4j.conf"
  {
    echo "server.http.listen_address=127.0.0.1:$NEO4J_HTTP_PORT"
    echo "server.bolt.listen_address=127.0.0.1:$NEO4J_BOLT_PORT"
    # What neo4j:// routing (Browser's default scheme) hands back: this server's own ports, not the defaults (a stack
    # on other ports, such as the test command's, would route clients to another Neo4j).
    echo "server.http.advertised_address=127.0.0.1:$NEO4J_HTTP_PORT"
    echo "server.bolt.advertised_address=127.0.0.1:$NEO4J_BOLT_PORT"
    echo "server.memory.pagecache.size=$NEO4J_PAGECACHE"
  } >> "$H/conf/neo4j.conf"
  if [ ! -f "$H/data/dbms/auth.ini" ]; then
    log "setting the initial neo4j password"
    NEO4J_HOME="$H" NEO4J_CONF="$H/conf" java -cp "$H/lib/*" -Dbasedir="$H" \
      org.neo4j.server.startup.Neo4jAdminCommand dbms set-initial-password "$NEO4J_PASSWORD" >"$H/logs/admin.log" 2>&1 \
      || die "set-initial-password failed: see $H/logs/admin.log"
  fi
  log "starting neo4j (heap $NEO4J_HEAP, page cache $NEO4J_PAGECACHE, bolt 127.0.0.1:$NEO4J_BOLT_PORT, http 127.0.0.1:$NEO4J_HTTP_PORT)"
  # Its own session (setsid), like the API, Redis (daemonized) and the worker (detached): a signal to the caller's
  # process group (a terminal's Ctrl-C, a supervisor killing the script that started it) does not reach Neo4j.
  # Started in the background without job control, setsid is no group leader: it execs java under this same pid.
  nohup setsid java -cp "$H/plugins/*:$H/conf/*:$H/lib/*" \
    -XX:+UseG1GC -XX:-OmitStackTraceInFastThrow -XX:+UnlockExperimentalVMOptions \
    -XX:+TrustFinalNonStaticFields -XX:+DisableExplicitGC -Djdk.nio.maxCachedBufferSize=1024 \
    -Dio.netty.tryReflectionSetAccessible=true -Djdk.tls.ephemeralDHKeySize=2048 \
    -Djdk.tls.rejectClientInitiatedRenegotiation=true -XX:FlightRecorderOptions=stackdepth=256 \
    -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints \
    --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED \
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --enable-native-access=ALL-UNNAMED \
    -Dlog4j2.disable.jmx=true -Dlog4j.layout.jsonTemplate.maxStringLength=32768 \
    -Djol.skipHotspotSAAttach=true -Djava.io.tmpdir="$H/tmp" \
    -Dfile.encoding=UTF-8 -Xms"$NEO4J_HEAP" -Xmx"$NEO4J_HEAP" \
    org.neo4j.server.CommunityEntryPoint --home-dir="$H" --config-dir="$H/conf" --console-mode \
    >"$H/logs/console.log" 2>&1 < /dev/null &
  echo $! > "$PID"
  if ! wait_for neo4j 180 http_ok; then
    tail -n 30 "$H/logs/console.log" >&2 || true
    die "neo4j did not answer on http://127.0.0.1:$NEO4J_HTTP_PORT within 180 s (log: $H/logs/console.log)"
  fi
  log "neo4j up (pid $(cat "$PID"))"
}

case "${1:-status}" in
  start) start ;;
  stop) stop_pid "$PID" neo4j 240 ;;  # a large graph's shutdown checkpoint takes minutes; a kill forces recovery
  status) if pid_alive "$PID" && http_ok; then echo "neo4j: running (pid $(cat "$PID"))"; else echo "neo4j: stopped"; exit 3; fi ;;
  *) die "usage: neo4j.sh start|stop|status" ;;
esac
