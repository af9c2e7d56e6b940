# Benchmarks/lib/scaling.sh: scenario scaling (sourced by Benchmarks/run), Statehouse only: what a second event loop
# costs and where its work goes, measured at a fixed offered load, then the raw closed-loop throughput (caveat below).
#
# On a 2-core machine the load generator needs one core, so a closed loop (wrk) cannot show 1 -> 2 loops scaling:
# the second loop and the load generator share CPU 1. Instead, Benchmarks/loadgen/httprate (CPU 1) offers the same
# fixed rates (SCALING_RATES requests/s over SCALING_CONNS keep-alive connections, latency from each request's
# scheduled time) to the server with 1 loop (CPU 0), 2 loops sharing CPU 0, and 2 loops on CPUs 0 and 1
# (SCALING_SETUPS), and reads the server's CPU per request and each thread's CPU and wake-ups
# (/proc/PID/task/*/schedstat) over the measured window; GET /metrics before and after gives the bytes each loop
# read, so where the connections landed. Two loads:
#   counter: every POST to the one configured store `counter`, whose actor runs on loop 0 (configured stores go to
#            the loops in turn); a connection on loop 1 reaches it with two hand-offs (loop 1 -> 0 -> 1).
#   stores:  SCALING_STORES Counter stores made with PUT (storeload, 16 connections: each store lives on the loop of
#            the connection that made it, so they spread over the loops) and each POST to a uniformly random one.
# "projected req/s" = 10^6 / (the busiest loop's CPU µs per request): the rate at which that loop would fill its
# core, were every loop to have a core of its own (the load generator elsewhere). Its ratio, 2 loops ÷ 1 loop, is
# the scaling this machine cannot show directly; per-loop CPU on CPU 1 includes time shared with the load generator.
# Then the closed-loop throughput rows (wrk -c64, as lib/http.sh, and fanout window 16, as lib/fanout.sh): kept for
# comparison with earlier runs, with their caveat.
# A build whose configuration reader rejects listen.eventLoops is reported as skipped.

# SCALING_OMIT_KEY=1 leaves listen.eventLoops out of the configuration (only the CPU pinning differs): a dry run of
# this scenario on a server that does not know the key yet.
SCALING_LOOPS=${SCALING_LOOPS:-"1 2"}
# The fixed-rate table's server setups, LOOPS:CPUS each: "2:0" is two loops sharing CPU 0 (what the second loop costs
# per request, with no CPU shared with the load generator), "2:0,1" two loops on both CPUs.
SCALING_SETUPS=${SCALING_SETUPS:-"1:0 2:0 2:0,1"}
SCALING_OMIT_KEY=${SCALING_OMIT_KEY:-0}
SCALING_RATES=${SCALING_RATES:-"10000 20000 40000 60000 80000"}
SCALING_CONNS=${SCALING_CONNS:-64}
SCALING_SECONDS=${SCALING_SECONDS:-4}
SCALING_STORES=${SCALING_STORES:-1000}
SCALING_THROUGHPUT=${SCALING_THROUGHPUT:-1}
# SCALING_NICE=-10 (root only) runs the server and httprate of the fixed-rate table at that niceness, so that other
# work on a shared machine (builds) takes less CPU from them; the closed-loop rows run at 0 as the other scenarios do.
SCALING_NICE=${SCALING_NICE:-0}

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
# scaling_name LOOPS [CPUS]: "1 loop, CPU 0", "2 loops, CPUs 0,1" (CPUS default: scaling_cpus LOOPS).
scaling_name() {
  local cpus=${2:-$(scaling_cpus "$1")}
  printf '%s loop%s, CPU%s %s\n' "$1" "$( (($1 > 1)) && echo s)" "$([[ $cpus == *,* ]] && echo s)" "$cpus"
}

# scaling_start LOOPS [CPUS]: starts statehouse with that many event loops (on CPUS, default scaling_cpus LOOPS). When
# it does not start: copies its log to stderr, sets SCALING_SKIP_REASON and fails.
scaling_start() {
  STATEHOUSE_LOG=warning STATEHOUSE_CONFIG=$(scaling_config "$1") SERVER_CPUS=${2:-$(scaling_cpus "$1")} \
    start_server statehouse 2>"$WORK/scaling.err" && return 0
  echo "bench: scaling: statehouse did not start with listen.eventLoops=$1:" >&2; cat "$WORK/scaling.err" >&2
  if grep -q 'eventLoops: unknown key' "$WORK/scaling.err"; then SCALING_SKIP_REASON="this build rejects listen.eventLoops"
  else SCALING_SKIP_REASON="statehouse did not start (its log is on stderr)"; fi
  return 1
}

# loop_read_bytes: "B0 B1 ..." the bytes each loop of the started server has read (GET /metrics, in loop order).
loop_read_bytes() {
  curl -s --max-time 5 "http://127.0.0.1:$SERVER_PORT/metrics" |
    sed -n 's/^statehouse_loop_read_bytes_total{loop="\([0-9]*\)"} \([0-9]*\).*/\1 \2/p' | sort -n | awk '{printf "%s ", $2}'
}

# loop_shares BEFORE AFTER: each loop's share of the bytes read between two loop_read_bytes, as "52/48" (percent).
loop_shares() {
  awk -v a="$1" -v b="$2" 'BEGIN {n = split(a, x, " "); split(b, y, " "); t = 0
    for (i = 1; i <= n; i++) { d[i] = y[i] - x[i]; t += d[i] }
    for (i = 1; i <= n; i++) printf "%s%.0f", (i > 1 ? "/" : ""), (t > 0 ? 100 * d[i] / t : 0); print ""}'
}

# rate_run RATE SECONDS TARGET...: one httprate load (TARGET: --store NAME or --stores N --prefix P) against the
# started server; prints "per_s p50_us p99_us us_per_req loop0_cores loop1_cores other_cores loop0_wait loop1_wait
# unsent+non2xx shares client_cores runs_per_req" (loop1 fields 0 with one loop; waits: cores' worth of time runnable,
# not running; runs_per_req: times the loop threads were put on a CPU, all loops, per answered request). Loop threads are the server's threads named statehouse-loop,
# in the order they started (thread ids): loop 0 first.
rate_run() {
  local rate=$1 s=$2 out line before after
  shift 2
  before=$(loop_read_bytes)
  out=$(timeout $((s + 30)) nice -n "$SCALING_NICE" taskset -c 1 "$BENCH/.build/httprate" --port "$SERVER_PORT" --rate "$rate" \
    --conns "$SCALING_CONNS" --seconds "$s" --warmup 1 --pid "$SERVER_PID" --max-seconds $((s + 20)) "$@" \
    2>>"$WORK/httprate.err" || true)
  after=$(loop_read_bytes)
  line=$(grep '^RESULT' <<<"$out" || echo "RESULT error=failed")
  if [[ $line == *error=* ]]; then echo "bench: scaling: httprate $rate $*: $line" >&2; return 1; fi
  awk -v s="$s" -v line="$line" -v shares="$(loop_shares "$before" "$after")" '
    /^THREAD/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
      if (f["name"] == "statehouse-loop") { loop[n + 0] = f["cpu_ms"]; wait[n + 0] = f["wait_ms"]; runs += f["runs"]; n++ }
      else other += f["cpu_ms"] }
    END { m = split(line, kvs, " "); for (i = 2; i <= m; i++) { split(kvs[i], kv, "="); r[kv[1]] = kv[2] }
      printf "%s %s %s %s %.2f %.2f %.2f %.2f %.2f %d %s %.2f %.3f\n", r["per_s"], r["p50_us"], r["p99_us"],
        r["server_us_per_req"], loop[0] / 1000 / s, loop[1] / 1000 / s, other / 1000 / s, wait[0] / 1000 / s,
        wait[1] / 1000 / s, r["unsent"] + r["non2xx"], shares, r["client_cpu_ms"] / 1000 / s,
        (r["completed"] > 0 ? runs / r["completed"] : 0) }' <<<"$out"
}

# rate_row SETUP LOAD RATE OTHER TARGET...: RUNS rate_runs, one table row of medians (SETUP: LOOPS:CPUS).
rate_row() {
  local setup=$1 load=$2 rate=$3 other=$4 r a b c d e f g h w i j k x
  local loops=${setup%%:*} cpus=${setup#*:}
  shift 4
  local per_s=() p50=() p99=() usreq=() l0=() l1=() oth=() w0=() w1=() bad=0 shares="" client=() proj=() wake=()
  for ((r = 0; r < RUNS; r++)); do
    read -r a b c d e f g w h i j k x <<<"$(rate_run "$rate" "$SCALING_SECONDS" "$@")" || continue
    [[ -n $a ]] || continue
    per_s+=("$a"); p50+=("$b"); p99+=("$c"); usreq+=("$d"); l0+=("$e"); l1+=("$f"); oth+=("$g"); w0+=("$w"); w1+=("$h")
    bad=$((bad + i)); shares=$j; client+=("$k"); wake+=("$x")
    # projected: the busiest loop's CPU per answered request fills its core at 10^6 / µs req/s
    proj+=("$(awk -v a="$a" -v e="$e" -v f="$f" 'BEGIN {m = e > f ? e : f; if (m > 0) printf "%.0f", a / m; else print 0}')")
  done
  ((${#per_s[@]})) || { echo "| $(scaling_name "$loops" "$cpus") | $load | $rate | failed (see stderr) |||||||||||||"; return; }
  local projected
  projected=$(printf '%s\n' "${proj[@]}" | median)
  SCALING_PROJ[$setup $load $rate]=$projected
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$(scaling_name "$loops" "$cpus")" "$load" \
    "$rate" "$(printf '%s\n' "${per_s[@]}" | median)" \
    "$(printf '%s\n' "${p50[@]}" | median | awk '{printf "%.2f", $1/1000}')" \
    "$(printf '%s\n' "${p99[@]}" | median | awk '{printf "%.2f", $1/1000}')" \
    "$(printf '%s\n' "${usreq[@]}" | median)" "$(printf '%s\n' "${wake[@]}" | median)" "$(printf '%s\n' "${l0[@]}" | median)" \
    "$( ((loops > 1)) && printf '%s\n' "${l1[@]}" | median || echo "—")" "$(printf '%s\n' "${oth[@]}" | median)" \
    "$(printf '%s\n' "${w0[@]}" | median)$( ((loops > 1)) && printf ' / %s' "$(printf '%s\n' "${w1[@]}" | median)")" \
    "$shares" "$projected" "$bad" "$other"
}

# scaling_fixed_rates: the fixed-rate table, counter load then stores load, for every loop count.
scaling_fixed_rates() {
  local setup loops cpus other rate line before after load
  echo
  echo "#### fixed offered load: httprate (CPU 1), POST {\"type\":\"increment\"}, $SCALING_CONNS keep-alive connections, ${SCALING_SECONDS} s per run after 1 s, medians of $RUNS runs, niceness $SCALING_NICE"
  echo
  echo "| event loops (server CPUs) | load | offered req/s | answered req/s | p50 ms | p99 ms | server CPU µs/req | loop runs per req | loop 0 (cores) | loop 1 (cores) | other threads (cores) | loops waiting for a CPU (cores) | bytes read per loop % | projected req/s | unsent + non-2xx | other load |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"
  # Every setup's server runs at once (idle ones wait in epoll_wait), and each rate is offered to the setups in turn,
  # so that a change in the rest of the machine's load hits the rows of one rate alike.
  declare -A pid=() port=() started=()
  for setup in $SCALING_SETUPS; do
    loops=${setup%%:*} cpus=${setup#*:}
    if SERVER_NICE=$SCALING_NICE scaling_start "$loops" "$cpus"; then pid[$setup]=$SERVER_PID; port[$setup]=$SERVER_PORT; started[$setup]=$SERVER_PID
    else SCALING_SKIPPED=1; echo "| $(scaling_name "$loops" "$cpus") | skipped: $SCALING_SKIP_REASON |||||||||||||||"; fi
  done
  for load in counter stores; do
    if [[ $load == stores ]]; then
      for setup in "${!pid[@]}"; do
        SERVER_PID=${pid[$setup]} SERVER_PORT=${port[$setup]}
        before=$(loop_read_bytes)
        line=$(taskset -c 1 timeout 120 "$BENCH/.build/storeload" create --port "$SERVER_PORT" --prefix scale- \
          --count "$SCALING_STORES" --max-seconds 100 | grep '^RESULT' || echo "RESULT error=failed")
        after=$(loop_read_bytes)
        if [[ $line == *error=* ]]; then echo "bench: scaling: store creation: $line" >&2; unset "pid[$setup]"
        else SCALING_PLACED[$setup]=$(loop_shares "$before" "$after"); fi
      done
    fi
    for rate in $SCALING_RATES; do
      other=$(wait_for_quiet)
      for setup in $SCALING_SETUPS; do
        [[ -n ${pid[$setup]:-} ]] || continue
        SERVER_PID=${pid[$setup]} SERVER_PORT=${port[$setup]}
        if [[ $load == counter ]]; then rate_row "$setup" counter "$rate" "$other" --store counter
        else rate_row "$setup" "$SCALING_STORES stores" "$rate" "$other" --stores "$SCALING_STORES" --prefix scale-; fi
      done
    done
  done
  for setup in "${!started[@]}"; do stop_server "${started[$setup]}"; done
  echo
  echo "Loop threads are the server's threads named statehouse-loop, loop 0 the first started; \"other threads\" is the"
  echo "rest of the server (main thread, Swift's pool). \"loop runs per req\": times a loop thread was put on a CPU"
  echo "(a wake-up from epoll_wait, or a return after preemption), all loops, per answered request (schedstat)."
  echo "\"loops waiting for a CPU\": time each loop was runnable while another thread held its CPU (schedstat; on CPU 1"
  echo "the load generator, on either other people's work)."
  echo "\"bytes read per loop\": the requests each loop read (GET /metrics before and after; the counter store's actor"
  echo "runs on loop 0, so a request read by loop 1 crosses twice)."
  echo "\"projected req/s\": 10^6 / the busiest loop's CPU µs per request, the rate at which that loop would fill a core"
  echo "of its own. The $SCALING_STORES stores were made with PUT over 16 connections, each store on the loop that read its PUT;"
  echo "the loops read the creation as: $(for setup in $SCALING_SETUPS; do printf '%s: %s %%; ' "$(scaling_name "${setup%%:*}" "${setup#*:}")" "${SCALING_PLACED[$setup]:-n/a}"; done | sed 's/; $/./')"
  local top
  top=${SCALING_RATES##* }
  echo
  echo "Projected req/s, 2 loops on CPUs 0,1 ÷ 1 loop, at $top req/s offered: counter"\
    "$(ratio "${SCALING_PROJ[2:0,1 counter $top]:-}" "${SCALING_PROJ[1:0 counter $top]:-}"), $SCALING_STORES stores"\
    "$(ratio "${SCALING_PROJ[2:0,1 $SCALING_STORES stores $top]:-}" "${SCALING_PROJ[1:0 $SCALING_STORES stores $top]:-}")."
}

scaling_scenario() {
  local loops other mode
  declare -g -A SCALING_PROJ=() SCALING_PLACED=()
  SCALING_SKIPPED=0
  echo
  echo "### scaling: Statehouse with 1 and 2 event loops (\"listen\": {\"eventLoops\": N})"
  echo
  echo "Each row's first column gives the loops and the CPUs the server is pinned to (taskset); the load generators run"
  echo "on CPU 1 in every row. Server log level warning."
  ((SCALING_OMIT_KEY)) && echo "DRY RUN (SCALING_OMIT_KEY=1): listen.eventLoops was NOT set; the server ran its default loop count."
  scaling_fixed_rates
  if ((SCALING_THROUGHPUT)); then
    echo
    echo "#### closed-loop throughput (caveat: the load generator needs all of CPU 1, which the second loop shares)"
    echo
    echo "http-actions: POST /stores/counter/actions {\"type\":\"increment\"}, wrk -t1 -c64 -d${HTTP_SECONDS}s keep-alive"
    echo
    echo "| event loops (server CPUs) | req/s | p50 ms | p99 ms | server CPU (cores) | server CPU µs/req | errors + non-2xx | 1 loop ÷ this (req/s) | other load |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    for loops in $SCALING_LOOPS; do
      other=$(wait_for_quiet)
      if ! scaling_start "$loops"; then SCALING_SKIPPED=1; echo "| $loops | skipped: $SCALING_SKIP_REASON ||||||||"; continue; fi
      HTTP_RPS[statehouse]=${HTTP_RPS["$(scaling_name 1)"]:-}
      http_row "$(scaling_name "$loops")" "$other"
      stop_server "$SERVER_PID"
    done
    echo
    echo "fanout, window 16: S subscribers on /stores/ticker/ws, ${FANOUT_SECONDS} s per run"
    echo
    echo "| event loops (server CPUs) | S | mode | deliveries/s | p50 ms | p99 ms | max ms | missing / conflated | server CPU µs/delivery | client CPU | 1 loop ÷ this (deliveries/s) | other load |"
    echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for loops in $SCALING_LOOPS; do
      other=$(wait_for_quiet)
      if ! scaling_start "$loops"; then SCALING_SKIPPED=1; echo "| $loops | skipped: $SCALING_SKIP_REASON ||||||||||"; continue; fi
      for mode in "100|--window 16|500" "1000|--window 16|100"; do
        scaling_fanout_row "$loops" "$mode" "$other"
      done
      stop_server "$SERVER_PID"
    done
    ((SCALING_SKIPPED)) || scaling_summary
    echo "The \"÷\" columns in these tables are 1 loop ÷ this row (below 1: this row is faster). On this 2-core machine"
    echo "the closed-loop rows measure the second loop taking CPU 1 from the load generator, not scaling: read the"
    echo "fixed-rate table above."
  fi
  ((SCALING_SKIPPED)) && { echo; echo "Skipped rows: $SCALING_SKIP_REASON."; }
  return 0
}

# scaling_fanout_row LOOPS MODE OTHER: fanout_row named by scaling_name; its ratio column is 1 loop ÷ this.
scaling_fanout_row() {
  local loops=$1 mode=$2 other=$3 subs flags warmup
  IFS='|' read -r subs flags warmup <<<"$mode"
  FANOUT_DPS[statehouse $subs $flags]=${FANOUT_DPS["$(scaling_name 1) $subs $flags"]:-}
  fanout_row "$(scaling_name "$loops")" "$mode" "$other"
}

# scaling_summary: one line per closed-loop load with the 2-loop ÷ 1-loop throughput.
scaling_summary() {
  local one two
  one=$(scaling_name 1); two=$(scaling_name 2)
  echo
  echo "Closed loop, 2 loops ÷ 1 loop: http-actions req/s $(ratio "${HTTP_RPS[$two]:-}" "${HTTP_RPS[$one]:-}");" \
    "fanout window 16 deliveries/s S=100 $(ratio "${FANOUT_DPS[$two 100 --window 16]:-}" "${FANOUT_DPS[$one 100 --window 16]:-}")," \
    "S=1000 $(ratio "${FANOUT_DPS[$two 1000 --window 16]:-}" "${FANOUT_DPS[$one 1000 --window 16]:-}")."
}
