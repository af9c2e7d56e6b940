# Benchmarks/lib/fanout.sh: scenario fanout (sourced by Benchmarks/run).
# S subscribers on /stores/ticker/ws and one publisher (Benchmarks/loadgen/wsfanout, one core): closed loop with 16
# actions in flight, and fixed rates (200/s for S=100, 100/s for S=1000). Each run is a fresh wsfanout process
# (fresh connections) against the same server; RUNS runs per mode.

FANOUT_SERVERS=(statehouse ${BEFORE:+statehouse-before} uws-native socketify websockets picows)
# FANOUT_SERVERS_ONLY="statehouse statehouse-before" (environment) runs only those, in that order.
if [[ -n ${FANOUT_SERVERS_ONLY:-} ]]; then read -r -a FANOUT_SERVERS <<<"$FANOUT_SERVERS_ONLY"; fi
# subs | mode flags | warm-up actions
FANOUT_MODES=("100|--window 16|500" "100|--rate 200|100" "1000|--window 16|100" "1000|--rate 100|50")

declare -A FANOUT_DPS=() FANOUT_P99=()

fanout_row() { # NAME MODE OTHER: RUNS loads against a started server, prints one table row
  local name=$1 mode=$2 other=$3 subs flags warmup r line t0 t1
  IFS='|' read -r subs flags warmup <<<"$mode"
  local dps=() p50=() p99=() mx=() missing=0 conflated=0 ccpu=() usdel=()
  for ((r = 0; r < RUNS; r++)); do
    t0=$(server_cpu_ticks "$SERVER_PID")
    # shellcheck disable=SC2086
    line=$(timeout $((FANOUT_SECONDS + 60)) taskset -c 1 "$BENCH/.build/wsfanout" --port "$SERVER_PORT" \
      --subs "$subs" $flags --warmup "$warmup" --duration "$FANOUT_SECONDS" --max-seconds $((FANOUT_SECONDS + 50)) \
      2>>"$WORK/wsfanout.err" | grep '^RESULT' || echo "RESULT error=failed")
    t1=$(server_cpu_ticks "$SERVER_PID")
    if [[ $line == *error=* ]]; then echo "bench: $name $mode: $line" >&2; continue; fi
    dps+=("$(field deliveries_per_s "$line")"); p50+=("$(field p50_us "$line")"); p99+=("$(field p99_us "$line")")
    mx+=("$(field max_us "$line")"); ccpu+=("$(field client_cpu "$line")")
    missing=$((missing + $(field missing "$line"))); conflated=$((conflated + $(field conflated "$line")))
    usdel+=("$(awk -v t=$((t1 - t0)) -v a="$(field actions "$line")" -v s="$subs" \
      'BEGIN {printf "%.2f", t * 10000 / (a * s)}')")
  done
  local key="$subs $flags" d q
  d=$(printf '%s\n' "${dps[@]}" | median); q=$(printf '%s\n' "${p99[@]}" | median)
  FANOUT_DPS[$name $key]=$d; FANOUT_P99[$name $key]=$q
  local vs
  if [[ $flags == --window* ]]; then vs=$(ratio "${FANOUT_DPS[statehouse $key]:-}" "$d")
  else vs=$(ratio "${FANOUT_P99[statehouse $key]:-}" "$q"); fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s | %s |\n' "$name" "$subs" "${flags#--}" "$d" \
    "$(printf '%s\n' "${p50[@]}" | median | awk '{printf "%.2f", $1/1000}')" \
    "$(awk -v q="$q" 'BEGIN {printf "%.2f", q/1000}')" \
    "$(printf '%s\n' "${mx[@]}" | median | awk '{printf "%.1f", $1/1000}')" "$missing" "$conflated" \
    "$(printf '%s\n' "${usdel[@]}" | median)" "$(printf '%s\n' "${ccpu[@]}" | median)" "$vs" "$other"
}

fanout_scenario() {
  local name mode other
  echo
  echo "### fanout: S subscribers on one store's WebSocket, ~110 B state message per action, ${FANOUT_SECONDS} s per run"
  echo
  echo "| server | S | mode | deliveries/s | p50 ms | p99 ms | max ms | missing / conflated | server CPU µs/delivery | client CPU | Statehouse ÷ this | other load |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for name in "${FANOUT_SERVERS[@]}"; do
    other=$(wait_for_quiet)
    start_server "$name"
    for mode in "${FANOUT_MODES[@]}"; do fanout_row "$name" "$mode" "$other"; done
    stop_server "$SERVER_PID"
  done
  echo
  echo "window 16: closed loop, at most 16 actions not yet received by all S; rate R: R actions/s, open loop."
  echo "Latency: publisher send to subscriber receive (CLOCK_MONOTONIC, same process). \"Statehouse ÷ this\" is the"
  echo "deliveries/s ratio for window rows and the p99 ratio for rate rows (there, above 1 means Statehouse is slower)."
  echo "Server CPU per delivery counts the whole run, connects included. Peers: uws-native = uWS pub/sub with a C handler"
  echo "(yyjson); socketify = the same uWS pub/sub with a Python handler; websockets 17 on uvloop with broadcast();"
  echo "picows on uvloop with a Python loop of transport.send."
}
