# Benchmarks/lib/many.sh: scenario many-stores (sourced by Benchmarks/run), Statehouse only.
# On a fresh server: MANY_STORES Counter stores created on demand with PUT (Benchmarks/loadgen/storeload: 16
# keep-alive connections, 32 requests pipelined on each, CPU 1), server RSS before and after; then POSTs spread
# uniformly at random over all of them (wrk -t1 -c64 keep-alive, MANY_SECONDS per run, RUNS runs, CPU 1).

MANY_STORES=${MANY_STORES:-100000}
MANY_SECONDS=${MANY_SECONDS:-10}

many_scenario() {
  local other base after line url r a b c d e t0 t1 created_s created_rate
  local rps=() p50=() p99=() usreq=() errs=0
  other=$(wait_for_quiet)
  STATEHOUSE_LOG=warning start_server statehouse
  sleep 0.5
  base=$(awk '/^VmRSS:/ {print $2}' "/proc/$SERVER_PID/status")
  line=$(taskset -c 1 timeout 300 "$BENCH/.build/storeload" create --port "$SERVER_PORT" --prefix many- \
    --count "$MANY_STORES" --max-seconds 240 | grep '^RESULT' || echo "RESULT error=failed")
  if [[ $line == *error=* ]]; then echo "bench: many-stores: store creation: $line" >&2; stop_server "$SERVER_PID"; return 1; fi
  created_s=$(field seconds "$line"); created_rate=$(field per_s "$line")
  sleep 1
  after=$(awk '/^VmRSS:/ {print $2}' "/proc/$SERVER_PID/status")
  url="http://127.0.0.1:$SERVER_PORT"
  timeout 15 taskset -c 1 wrk -t1 -c64 -d1s -s "$BENCH/lib/many_stores.lua" "$url" -- "$MANY_STORES" many- >/dev/null
  for ((r = 0; r < RUNS; r++)); do
    t0=$(server_cpu_ticks "$SERVER_PID")
    line=$(timeout $((MANY_SECONDS + 15)) taskset -c 1 wrk -t1 -c64 -d"${MANY_SECONDS}s" \
      -s "$BENCH/lib/many_stores.lua" "$url" -- "$MANY_STORES" many- | sed -n 's/^RESULT //p')
    t1=$(server_cpu_ticks "$SERVER_PID")
    read -r a b c d e <<<"$line"
    rps+=("$a"); p50+=("$b"); p99+=("$c"); errs=$((errs + d + e))
    usreq+=("$(awk -v t=$((t1 - t0)) -v n="$a" -v s="$MANY_SECONDS" 'BEGIN {printf "%.1f", t * 10000 / (n * s)}')")
  done
  stop_server "$SERVER_PID"
  echo
  echo "### many-stores (Statehouse only): $MANY_STORES Counter stores created with PUT, then POST {\"type\":\"increment\"} to a uniformly random one"
  echo
  echo "| stores | create time | creates/s | server RSS at start | after stores | per store | actions/s | p50 ms | p99 ms | server CPU µs/req | errors + non-2xx | other load |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  awk -v n="$MANY_STORES" -v cs="$created_s" -v cr="$created_rate" -v b="$base" -v s="$after" \
    -v rps="$(printf '%s\n' "${rps[@]}" | median)" \
    -v p50="$(printf '%s\n' "${p50[@]}" | median | awk '{printf "%.2f", $1/1000}')" \
    -v p99="$(printf '%s\n' "${p99[@]}" | median | awk '{printf "%.2f", $1/1000}')" \
    -v us="$(printf '%s\n' "${usreq[@]}" | median)" -v err="$errs" -v o="$other" \
    'BEGIN {printf "| %d | %s s | %s | %.1f MiB | %.1f MiB | %.2f KiB | %s | %s | %s | %s | %d | %s |\n",
      n, cs, cr, b/1024, s/1024, (s-b)/n, rps, p50, p99, us, err, o}'
  echo
  echo "Creation: Benchmarks/loadgen/storeload (C, epoll) on CPU 1, PUT /stores/many-I {\"reducer\":\"Counter\"}, 16 keep-alive"
  echo "connections with 32 requests pipelined on each; every answer must be 200 or 201. Actions: wrk -t1 -c64"
  echo "-d${MANY_SECONDS}s keep-alive with Benchmarks/lib/many_stores.lua (store chosen uniformly at random per request),"
  echo "after a 1 s warm-up; medians of $RUNS runs. Server pinned to CPU 0, log level warning."
}
