# Benchmarks/lib/fairness.sh: scenario fairness (sourced by Benchmarks/run).
# One loop (the server pinned to CPU 0, so eventLoops defaults to 1), FAIRNESS_SUBS WebSocket subscribers of
# /stores/ticker (19,000, or what `ulimit -Hn` leaves room for), and a probe client POSTing to /stores/counter about
# once per ms (Benchmarks/loadgen/fairness, on CPU 1): its latency with no fan-out running, then while FAIRNESS_BATCHES
# POSTs of 256 publish actions are each fanned out to every subscriber (5.0 M deliveries per batch at S = 19,000).
# FAIRNESS_BEFORE=/path/to/statehouse adds a row for another build (e.g. the previous revision, built in a separate
# `git worktree`), run the same way first.

fairness_row() { # LABEL BINARY: one run against a fresh server, prints one table row
  local label=$1 binary=$2 line subs
  subs=$(( $(ulimit -Hn) - 1000 ))
  ((subs > ${FAIRNESS_SUBS:-19000})) && subs=${FAIRNESS_SUBS:-19000}
  STATEHOUSE_BIN=$binary start_server statehouse
  line=$(timeout 300 taskset -c 1 "$BENCH/.build/fairness" --port "$SERVER_PORT" --subs "$subs" \
    --batches "${FAIRNESS_BATCHES:-3}" --baseline "${FAIRNESS_BASELINE:-5}" --max-seconds 280 \
    2>>"$WORK/fairness.err" | grep '^RESULT' || echo "RESULT error=failed")
  stop_server "$SERVER_PID"
  if [[ $line == *error=* ]]; then echo "bench: fairness $label: $line" >&2; return; fi
  ms() { awk -v u="$(field "$1" "$line")" 'BEGIN {printf "%.2f", u/1000}'; }
  printf '| %s | %s | %s × %s | %s | %s | %s | %s | %s | %s | %s / %s |\n' "$label" "$subs" \
    "$(field batches "$line")" "$(field batch "$line")" "$(ms base_p50_us)" "$(ms base_p99_us)" "$(ms fan_p50_us)" \
    "$(ms fan_p99_us)" "$(ms fan_max_us)" "$(field fanout_ms "$line")" "$(field fan_n "$line")" "$(field conflated "$line")"
}

fairness_scenario() {
  echo
  echo "### fairness: a client of another store on the same loop while one store fans out (one loop, CPU 0)"
  echo
  echo "| build | S | batches × actions | probe p50 ms, no fan-out | p99 ms, no fan-out | p50 ms, fan-out | p99 ms, fan-out | max ms, fan-out | fan-out ms per batch | probe requests / conflated |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  if [[ -n ${FAIRNESS_BEFORE:-} ]]; then wait_for_quiet >/dev/null; fairness_row "before ($FAIRNESS_BEFORE)" "$FAIRNESS_BEFORE"; fi
  wait_for_quiet >/dev/null
  fairness_row "this build" "$ROOT/.build/release/statehouse"
  echo
  echo "Probe: POST {\"type\":\"increment\"} to /stores/counter, one at a time, ~1 per ms, send to end of response;"
  echo "\"fan-out\" counts the requests sent while a batch was being delivered (from its POST until every subscriber"
  echo "held its last version). Conflated: patch messages (a subscriber skipped past states it was too slow for)."
}
