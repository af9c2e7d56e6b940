# Benchmarks/lib/idle.sh: scenario idle-connections (sourced by Benchmarks/run), Statehouse only.
# For each size in IDLE_SIZES (default "10000 50000" subscribers), on a fresh server: RSS (/proc/PID/status VmRSS)
# at start, after IDLE_STORES Counter stores created with PUT, and after the idle WebSocket subscribers (subscriber
# i on store i mod IDLE_STORES) have all received their snapshot; then the time to broadcast one change to all of
# them, IDLE_ROUNDS rounds (median): one POST {"type":"increment"} to every store, all pipelined on one keep-alive
# connection, timed from just before that write to the last subscriber receiving its message. The client
# (Benchmarks/loadgen/storeload, one process, epoll) runs on CPU 1. A size that needs more file descriptors than
# `ulimit -n` can be raised to (hard limit, no CAP_SYS_RESOURCE) is reported as skipped.

IDLE_STORES=${IDLE_STORES:-1000}
IDLE_SIZES=${IDLE_SIZES:-"10000 50000"}
IDLE_ROUNDS=${IDLE_ROUNDS:-3}

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

wait_line() { # FILE PATTERN SECONDS
  local deadline=$((SECONDS + $3))
  until grep -q "$2" "$1"; do ((SECONDS > deadline)) && return 1; sleep 0.1; done
}

# raise_fd_limit N: makes `ulimit -n` at least N (soft, and hard when it is lower); fails when that is not allowed.
raise_fd_limit() {
  local need=$1
  (($(ulimit -Sn) >= need)) && return 0
  if (($(ulimit -Hn) >= need)); then ulimit -Sn "$need"; else ulimit -n "$need" 2>/dev/null; fi
}

idle_row() { # SUBSCRIBERS OTHER: one fresh server, prints one table row
  local n=$1 other=$2 base after_stores after_conns cpid line ready
  local fifo="$WORK/idle-$n.in" out="$WORK/idle-$n.out"
  STATEHOUSE_LOG=warning start_server statehouse
  sleep 0.5
  base=$(rss_kib "$SERVER_PID")
  line=$(taskset -c 1 timeout 120 "$BENCH/.build/storeload" create --port "$SERVER_PORT" --prefix idle- \
    --count "$IDLE_STORES" | grep '^RESULT' || echo "RESULT error=failed")
  [[ $line == *error=* ]] && { echo "bench: idle $n: store creation: $line" >&2; stop_server "$SERVER_PID"; return 1; }
  sleep 0.5
  after_stores=$(rss_kib "$SERVER_PID")
  rm -f "$fifo"; mkfifo "$fifo"
  taskset -c 1 timeout 600 "$BENCH/.build/storeload" idle --port "$SERVER_PORT" --prefix idle- \
    --stores "$IDLE_STORES" --conns "$n" --rounds "$IDLE_ROUNDS" --max-seconds 500 <"$fifo" >"$out" 2>&1 &
  cpid=$!
  exec 5>"$fifo"
  if ! wait_line "$out" CONNECTIONS_READY 300; then
    echo "bench: idle $n: subscribers not ready; client output:" >&2; cat "$out" >&2
    exec 5>&-; wait "$cpid" || true; stop_server "$SERVER_PID"; return 1
  fi
  sleep 1
  after_conns=$(rss_kib "$SERVER_PID")
  echo go >&5
  wait_line "$out" '^RESULT' 300 || true
  exec 5>&-
  wait "$cpid" || true
  stop_server "$SERVER_PID"
  line=$(grep '^RESULT' "$out" || echo "RESULT error=no_result")
  ready=$(sed -n 's/^CONNECTIONS_READY n=[0-9]* seconds=\([0-9.]*\).*/\1/p' "$out")
  [[ $line == *error=* ]] && { echo "bench: idle $n: broadcast: $line" >&2; cat "$out" >&2; }
  awk -v b="$base" -v s="$after_stores" -v c="$after_conns" -v ns="$IDLE_STORES" -v nc="$n" -v o="$other" \
    -v r="$ready" -v all="$(field all_ms "$line")" -v p50="$(field p50_ms "$line")" -v posts="$(field posts_ms "$line")" \
    'BEGIN {printf "| %d | %d | %.1f MiB | %.1f MiB | %.1f KiB | %.1f MiB | %.1f KiB | %s s | %s | %s | %s | %s |\n",
      nc, ns, b/1024, s/1024, (s-b)/ns, c/1024, (c-s)/nc, r, all, p50, posts, o}'
}

idle_scenario() {
  local n other
  echo
  echo "### idle-connections (Statehouse only): $IDLE_STORES Counter stores created with PUT, then N idle WebSocket subscribers (subscriber i on store i mod $IDLE_STORES), then broadcasts"
  echo
  echo "| subscribers N | stores | server RSS at start | after stores | per store | after subscribers | per subscriber | connect all | broadcast: last subscriber ms | half of them ms | last POST answered ms | other load |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for n in $IDLE_SIZES; do
    if ! raise_fd_limit $((n + 1024)); then
      echo "| $n | $IDLE_STORES | skipped: needs \`ulimit -n\` ≥ $((n + 1024)), hard limit here is $(ulimit -Hn) (raising it needs root with CAP_SYS_RESOURCE) ||||||||||"
      continue
    fi
    other=$(wait_for_quiet)
    idle_row "$n" "$other" || echo "| $n | $IDLE_STORES | failed (see the log above) ||||||||||"
  done
  echo
  echo "Broadcast: one change to every store, i.e. $IDLE_STORES POST /stores/idle-J/actions {\"type\":\"increment\"} written at once,"
  echo "pipelined on one keep-alive connection; each of the N subscribers receives one message. Times run from just before"
  echo "that write to the last (and the median) subscriber receiving its message, and to the last HTTP response; medians of"
  echo "$IDLE_ROUNDS rounds. Client: Benchmarks/loadgen/storeload (C, epoll, one process on CPU 1; above 20,000 connections its"
  echo "sockets are bound to source addresses 127.0.0.2… so ephemeral ports suffice). Server log level: warning."
  echo "\"connect all\": opening the N WebSockets (at most 256 handshakes in flight) until each has its snapshot."
}
