# Benchmarks/lib/scaling.sh: scenario scaling (sourced by Benchmarks/run), Statehouse only: the same loads with
# "listen": {"eventLoops": 1} pinned to CPU 0 (taskset -c 0) and {"eventLoops": 2} on CPUs 0 and 1 (taskset -c 0,1).
# The load generator stays on CPU 1 in both, so with 2 loops the server shares CPU 1 with it.
# Loads: http-actions (as lib/http.sh) and fanout window 16 with 100 and 1,000 subscribers (as lib/fanout.sh).
# A build whose configuration reader rejects listen.eventLoops is reported as skipped.

# SCALING_OMIT_KEY=1 leaves listen.eventLoops out of the configuration (only the CPU pinning differs): a dry run of
# this scenario on a server that does not know the key yet.
SCALING_LOOPS=${SCALING_LOOPS:-"1 2"}
SCALING_OMIT_KEY=${SCALING_OMIT_KEY:-0}

# scaling_config LOOPS: writes a copy of statehouse-bench.json with listen.eventLoops = LOOPS; prints its path.
scaling_config() {
  local path="$WORK/statehouse-loops-$1.json"
  python3 - "$BENCH/statehouse-bench.json" "$path" "$1" "$SCALING_OMIT_KEY" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
if sys.argv[4] != "1":
    config.setdefault("listen", {})["eventLoops"] = int(sys.argv[3])
json.dump(config, open(sys.argv[2], "w"), indent=2)
PY
  echo "$path"
}

scaling_cpus() { (($1 == 1)) && echo 0 || echo 0,1; }
scaling_name() { (($1 == 1)) && echo "1 loop, CPU 0" || echo "$1 loops, CPUs 0,1"; }

# scaling_start LOOPS: starts statehouse with that many event loops. When it does not start: copies its log to stderr,
# sets SCALING_SKIP_REASON and fails.
scaling_start() {
  STATEHOUSE_CONFIG=$(scaling_config "$1") SERVER_CPUS=$(scaling_cpus "$1") start_server statehouse 2>"$WORK/scaling.err" \
    && return 0
  echo "bench: scaling: statehouse did not start with listen.eventLoops=$1:" >&2; cat "$WORK/scaling.err" >&2
  if grep -q 'eventLoops: unknown key' "$WORK/scaling.err"; then SCALING_SKIP_REASON="this build rejects listen.eventLoops"
  else SCALING_SKIP_REASON="statehouse did not start (its log is on stderr)"; fi
  return 1
}

scaling_scenario() {
  local loops other mode skipped=0
  echo
  echo "### scaling: Statehouse with 1 and 2 event loops (\"listen\": {\"eventLoops\": N})"
  echo
  echo "eventLoops 1: server pinned to CPU 0 (taskset -c 0). eventLoops 2: server on CPUs 0 and 1 (taskset -c 0,1)."
  echo "The load generator (wrk, wsfanout) runs on CPU 1 in both, so with 2 loops the server shares CPU 1 with the load"
  echo "generator: the 2-loop rows show what a second loop gains on a 2-core machine that also runs the client."
  ((SCALING_OMIT_KEY)) && echo "DRY RUN (SCALING_OMIT_KEY=1): listen.eventLoops was NOT set; the server ran its default loop count."
  echo
  echo "#### http-actions: POST /stores/counter/actions {\"type\":\"increment\"}, wrk -t1 -c64 -d${HTTP_SECONDS}s keep-alive"
  echo
  echo "| event loops (server CPUs) | req/s | p50 ms | p99 ms | server CPU (cores) | server CPU µs/req | errors + non-2xx | 1 loop ÷ this (req/s) | other load |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for loops in $SCALING_LOOPS; do
    other=$(wait_for_quiet)
    if ! scaling_start "$loops"; then skipped=1; echo "| $loops | skipped: $SCALING_SKIP_REASON ||||||||"; continue; fi
    HTTP_RPS[statehouse]=${HTTP_RPS["$(scaling_name 1)"]:-}
    http_row "$(scaling_name "$loops")" "$other"
    stop_server "$SERVER_PID"
  done
  echo
  echo "#### fanout, window 16: S subscribers on /stores/ticker/ws, ${FANOUT_SECONDS} s per run"
  echo
  echo "| event loops (server CPUs) | S | mode | deliveries/s | p50 ms | p99 ms | max ms | missing / conflated | server CPU µs/delivery | client CPU | 1 loop ÷ this (deliveries/s) | other load |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for loops in $SCALING_LOOPS; do
    other=$(wait_for_quiet)
    if ! scaling_start "$loops"; then skipped=1; echo "| $loops | skipped: $SCALING_SKIP_REASON ||||||||||"; continue; fi
    for mode in "100|--window 16|500" "1000|--window 16|100"; do
      scaling_fanout_row "$loops" "$mode" "$other"
    done
    stop_server "$SERVER_PID"
  done
  if ((skipped)); then echo; echo "Skipped rows: $SCALING_SKIP_REASON."
  else scaling_summary; fi
  echo "The \"÷\" columns in the tables are 1 loop ÷ this row (below 1: this row is faster)."
  return 0
}

# scaling_fanout_row LOOPS MODE OTHER: fanout_row named by scaling_name; its ratio column is 1 loop ÷ this.
scaling_fanout_row() {
  local loops=$1 mode=$2 other=$3 subs flags warmup
  IFS='|' read -r subs flags warmup <<<"$mode"
  FANOUT_DPS[statehouse $subs $flags]=${FANOUT_DPS["$(scaling_name 1) $subs $flags"]:-}
  fanout_row "$(scaling_name "$loops")" "$mode" "$other"
}

# scaling_summary: one line per load with the 2-loop ÷ 1-loop throughput.
scaling_summary() {
  local one two subs
  one=$(scaling_name 1); two=$(scaling_name 2)
  echo
  echo "2 loops ÷ 1 loop: http-actions req/s $(ratio "${HTTP_RPS[$two]:-}" "${HTTP_RPS[$one]:-}");" \
    "fanout window 16 deliveries/s S=100 $(ratio "${FANOUT_DPS[$two 100 --window 16]:-}" "${FANOUT_DPS[$one 100 --window 16]:-}")," \
    "S=1000 $(ratio "${FANOUT_DPS[$two 1000 --window 16]:-}" "${FANOUT_DPS[$one 1000 --window 16]:-}")."
}
