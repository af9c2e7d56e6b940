# Benchmarks/lib/http.sh: scenario http-actions (sourced by Benchmarks/run).
# POST /stores/counter/actions {"type":"increment"}, keep-alive, wrk -t1 -c64 for HTTP_SECONDS, RUNS times per
# server, after a 1 s warm-up. Server CPU comes from /proc (user + system), so "µs/req" stays meaningful when wrk
# (one core) is the bottleneck.

HTTP_SERVERS=(statehouse ${BEFORE:+statehouse-before} uws-native nginx socketify asyncio)
# HTTP_SERVERS_ONLY="statehouse statehouse-before" (environment) runs only those, in that order.
if [[ -n ${HTTP_SERVERS_ONLY:-} ]]; then read -r -a HTTP_SERVERS <<<"$HTTP_SERVERS_ONLY"; fi

declare -A HTTP_RPS=()

# wrk_run URL CONNECTIONS [SECONDS]: one wrk -t1 load (post_action.lua) of SECONDS (default HTTP_SECONDS) against
# the started server SERVER_PID; prints "req/s p50µs p99µs errors+non-2xx server-cores server-µs/req".
wrk_run() {
  local url=$1 conns=$2 s=${3:-$HTTP_SECONDS} line t0 t1 a b c d e
  t0=$(server_cpu_ticks "$SERVER_PID")
  line=$(timeout $((s + 15)) taskset -c 1 wrk -t1 -c"$conns" -d"${s}s" -s "$BENCH/lib/post_action.lua" "$url" |
    sed -n 's/^RESULT //p')
  t1=$(server_cpu_ticks "$SERVER_PID")
  read -r a b c d e <<<"$line"
  echo "${a:-0} ${b:-0} ${c:-0} $((${d:-1} + ${e:-0})) $(cpu_cores $((t1 - t0)) "$s") $(cpu_us_per $((t1 - t0)) "$(awk -v r="${a:-0}" -v s="$s" 'BEGIN {print r * s}')")"
}

http_row() { # NAME: runs the loads against a started server, prints one table row
  local name=$1 other=$2 url="http://127.0.0.1:$SERVER_PORT/stores/counter/actions" r a b c d e f
  local rps=() p50=() p99=() cores=() usreq=() errs=0
  timeout 15 taskset -c 1 wrk -t1 -c64 -d1s -s "$BENCH/lib/post_action.lua" "$url" >/dev/null
  for ((r = 0; r < RUNS; r++)); do
    read -r a b c d e f <<<"$(wrk_run "$url" 64)"
    rps+=("$a"); p50+=("$b"); p99+=("$c"); errs=$((errs + d)); cores+=("$e"); usreq+=("$f")
  done
  HTTP_RPS[$name]=$(printf '%s\n' "${rps[@]}" | median)
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "${HTTP_RPS[$name]}" \
    "$(printf '%s\n' "${p50[@]}" | median | awk '{printf "%.2f", $1/1000}')" \
    "$(printf '%s\n' "${p99[@]}" | median | awk '{printf "%.2f", $1/1000}')" \
    "$(printf '%s\n' "${cores[@]}" | median)" "$(printf '%s\n' "${usreq[@]}" | median)" "$errs" \
    "$(ratio "${HTTP_RPS[statehouse]:-}" "${HTTP_RPS[$name]}")" "$other"
}

http_scenario() {
  local name other
  echo
  echo "### http-actions: POST /stores/counter/actions {\"type\":\"increment\"}, wrk -t1 -c64 -d${HTTP_SECONDS}s keep-alive"
  echo
  echo "| server | req/s | p50 ms | p99 ms | server CPU (cores) | server CPU µs/req | errors + non-2xx | Statehouse ÷ this (req/s) | other load |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for name in "${HTTP_SERVERS[@]}"; do
    other=$(wait_for_quiet)
    start_server "$name"
    http_row "$name" "$other"
    stop_server "$SERVER_PID"
  done
  echo
  echo "uws-native is uWebSockets with a C handler (yyjson; peers/uws_native_peer.c, on socketify's uWS library);"
  echo "nginx returns a fixed JSON without parsing the body (the plain-HTTP ceiling); socketify is uWebSockets with a"
  echo "Python handler (stdlib json); asyncio is a bare asyncio.Protocol HTTP/1.1 parser on uvloop (stdlib json)."
}
