# Benchmarks/lib/http.sh: scenario http-actions (sourced by Benchmarks/run).
# POST /stores/counter/actions {"type":"increment"}, keep-alive, wrk -t1 -c64 for HTTP_SECONDS, RUNS times per
# server, after a 1 s warm-up. Server CPU comes from /proc (user + system), so "µs/req" stays meaningful when wrk
# (one core) is the bottleneck.

HTTP_SERVERS=(statehouse uws-native nginx socketify asyncio)

declare -A HTTP_RPS=()

http_row() { # NAME: runs the loads against a started server, prints one table row
  local name=$1 other=$2 url="http://127.0.0.1:$SERVER_PORT/stores/counter/actions" r line t0 t1
  local rps=() p50=() p99=() cores=() usreq=() errs=0
  timeout 15 taskset -c 1 wrk -t1 -c64 -d1s -s "$BENCH/lib/post_action.lua" "$url" >/dev/null
  for ((r = 0; r < RUNS; r++)); do
    t0=$(server_cpu_ticks "$SERVER_PID")
    line=$(timeout $((HTTP_SECONDS + 15)) taskset -c 1 wrk -t1 -c64 -d"${HTTP_SECONDS}s" \
      -s "$BENCH/lib/post_action.lua" "$url" | sed -n 's/^RESULT //p')
    t1=$(server_cpu_ticks "$SERVER_PID")
    read -r a b c d e <<<"$line"
    rps+=("$a"); p50+=("$b"); p99+=("$c"); errs=$((errs + d + e))
    cores+=("$(awk -v t=$((t1 - t0)) -v s="$HTTP_SECONDS" 'BEGIN {printf "%.2f", t / 100 / s}')")
    usreq+=("$(awk -v t=$((t1 - t0)) -v n="$a" -v s="$HTTP_SECONDS" 'BEGIN {printf "%.1f", t * 10000 / (n * s)}')")
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
