# Benchmarks/lib/idle.sh: scenario idle-connections (sourced by Benchmarks/run), Statehouse only.
# Server RSS (/proc/PID/status VmRSS) at start, after IDLE_STORES stores created with PUT, and after IDLE_CONNECTIONS
# idle WebSocket subscribers spread round robin over them.

IDLE_STORES=${IDLE_STORES:-1000}
IDLE_CONNECTIONS=${IDLE_CONNECTIONS:-10000}

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

wait_line() { # FILE PATTERN SECONDS
  local deadline=$((SECONDS + $3))
  until grep -q "$2" "$1"; do ((SECONDS > deadline)) && return 1; sleep 0.1; done
}

idle_scenario() {
  local other base after_stores after_conns cpid fifo="$WORK/idle.in" out="$WORK/idle.out"
  other=$(wait_for_quiet)
  start_server statehouse
  sleep 0.5
  base=$(rss_kib "$SERVER_PID")
  mkfifo "$fifo"
  taskset -c 1 timeout 300 "$BENCH/.venv/bin/python" "$BENCH/lib/idle_client.py" "$SERVER_PORT" "$IDLE_STORES" \
    "$IDLE_CONNECTIONS" 240 <"$fifo" >"$out" 2>&1 &
  cpid=$!
  exec 5>"$fifo"
  wait_line "$out" STORES_READY 120 || { cat "$out" >&2; return 1; }
  sleep 0.5
  after_stores=$(rss_kib "$SERVER_PID")
  wait_line "$out" CONNECTIONS_READY 200 || { cat "$out" >&2; return 1; }
  sleep 1
  after_conns=$(rss_kib "$SERVER_PID")
  exec 5>&-
  wait "$cpid" || true
  stop_server "$SERVER_PID"
  echo
  echo "### idle-connections (Statehouse only): $IDLE_STORES Counter stores created with PUT, then $IDLE_CONNECTIONS idle WebSocket subscribers (round robin)"
  echo
  echo "| server RSS at start | after stores | per store | after subscribers | per subscriber | other load |"
  echo "|---:|---:|---:|---:|---:|---:|"
  awk -v b="$base" -v s="$after_stores" -v c="$after_conns" -v ns="$IDLE_STORES" -v nc="$IDLE_CONNECTIONS" -v o="$other" \
    'BEGIN {printf "| %.1f MiB | %.1f MiB | %.1f KiB | %.1f MiB | %.1f KiB | %s |\n", b/1024, s/1024, (s-b)/ns, c/1024, (c-s)/nc, o}'
}
