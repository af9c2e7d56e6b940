# Benchmarks/lib/connect.sh: scenario connect (sourced by Benchmarks/run).
# WebSocket connection setup: K clients (CONNECT_CLIENTS, default "1 64") each repeatedly connect over TCP, open
# /stores/ticker/ws (RFC 6455 opening handshake), wait for the 101 and the first message (the snapshot), send a close
# frame (1000) and wait for the server's close frame or EOF, then close the socket (Benchmarks/loadgen/wsconnect, one
# core). CONNECT_SECONDS per run (default 5) after 1 s of warm-up, RUNS runs per K; the server's CPU per completed
# connection comes from /proc (user + system) over the whole run, warm-up included.

CONNECT_SECONDS=${CONNECT_SECONDS:-5}
CONNECT_CLIENTS=${CONNECT_CLIENTS:-"1 64"}
CONNECT_SERVERS=(statehouse ${BEFORE:+statehouse-before} uws-native socketify websockets picows)
# CONNECT_SERVERS_ONLY="statehouse uws-native" (environment) runs only those, in that order.
if [[ -n ${CONNECT_SERVERS_ONLY:-} ]]; then read -r -a CONNECT_SERVERS <<<"$CONNECT_SERVERS_ONLY"; fi

declare -A CONNECT_CPS=()

connect_row() { # NAME K OTHER: RUNS loads against a started server, prints one table row
  local name=$1 k=$2 other=$3 r line t0 t1 cps=() p50=() p99=() usconn=() ccpu=() refused=0 errors=0
  for ((r = 0; r < RUNS; r++)); do
    t0=$(server_cpu_ticks "$SERVER_PID")
    line=$(timeout $((CONNECT_SECONDS + 30)) taskset -c 1 "$BENCH/.build/wsconnect" --port "$SERVER_PORT" \
      --clients "$k" --warmup 1 --duration "$CONNECT_SECONDS" --max-seconds $((CONNECT_SECONDS + 20)) \
      2>>"$WORK/wsconnect.err" | grep '^RESULT' || echo "RESULT error=failed")
    t1=$(server_cpu_ticks "$SERVER_PID")
    if [[ $line == *error=* ]]; then echo "bench: $name connect $k: $line" >&2; continue; fi
    cps+=("$(field connects_per_s "$line")"); p50+=("$(field p50_us "$line")"); p99+=("$(field p99_us "$line")")
    ccpu+=("$(field client_cpu "$line")")
    refused=$((refused + $(field refused "$line"))); errors=$((errors + $(field errors "$line")))
    # Whole run (warm-up included) over connections made in it: connects_per_s × (warm-up + measured seconds).
    usconn+=("$(awk -v t=$((t1 - t0)) -v c="$(field connects_per_s "$line")" -v s="$CONNECT_SECONDS" \
      'BEGIN {if (c > 0) printf "%.1f", t * 10000 / (c * (s + 1)); else printf "n/a"}')")
  done
  ((${#cps[@]})) || return 0
  local c
  c=$(printf '%s\n' "${cps[@]}" | median)
  CONNECT_CPS[$name $k]=$c
  printf '| %s | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s |\n' "$name" "$k" "$c" \
    "$(printf '%s\n' "${p50[@]}" | median | awk '{printf "%.3f", $1/1000}')" \
    "$(printf '%s\n' "${p99[@]}" | median | awk '{printf "%.2f", $1/1000}')" \
    "$(printf '%s\n' "${usconn[@]}" | median)" "$refused" "$errors" "$(printf '%s\n' "${ccpu[@]}" | median)" \
    "$(ratio "${CONNECT_CPS[statehouse $k]:-}" "$c")" "$other"
}

connect_scenario() {
  local name k other
  echo
  echo "### connect: WebSocket connection setup on /stores/ticker/ws (connect, handshake, snapshot, close), ${CONNECT_SECONDS} s per run"
  echo
  echo "| server | clients | connects/s | p50 ms | p99 ms | server CPU µs/connection | refused / errors | client CPU | Statehouse ÷ this | other load |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for name in "${CONNECT_SERVERS[@]}"; do
    other=$(wait_for_quiet)
    start_server "$name"
    for k in $CONNECT_CLIENTS; do connect_row "$name" "$k" "$other"; done
    stop_server "$SERVER_PID"
  done
  echo
  echo "Each client: connect(2), the upgrade request, the 101 and the first message (the snapshot), a close frame (1000),"
  echo "the server's close frame or EOF, close(2); then again. Latency: connect(2) to the first message. Server CPU per"
  echo "connection counts the whole run (1 s warm-up included) over the connections made in it. Peers: uws-native ="
  echo "uWS with C handlers (snapshot on open, then subscribed); socketify = the same uWS with Python handlers;"
  echo "websockets 17 on uvloop; picows on uvloop."
}
