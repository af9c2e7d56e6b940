# Benchmarks/lib/client.sh: scenario client (sourced by Benchmarks/run), Statehouse only: the Swift client library.
# One server (CPU 0); Benchmarks/Client (statehouse-client-bench, release build, every thread of it on CPU 1) runs
# RUNS times against it, after one short warm-up run, and each run measures, on the Counter store `counter`:
#  - send throughput: `increment` actions acked per second for one RemoteStore (`try await store.send(.increment)`
#    from W tasks) and for a raw WebSocketClient writing the /ws messages by hand (W written at once, one more per ack,
#    each server message parsed with JSONValue(parsing:) only to find the acks), W in CLIENT_WINDOWS, CLIENT_SECONDS
#    per run (both subscribed to the store, so both receive one patch per change as well);
#  - change → receipt latency: a third connection (raw) sends one increment at a time; the time from just before
#    that send to the RemoteStore.observe callback with that version, and to the raw subscriber (on its own loop)
#    parsing the patch of that version; CLIENT_CHANGES changes after 100 untimed ones, p50 and p99.
# "CPU" is the client process's own (getrusage, all threads) per action or change: for latency it includes the
# driver connection, the same in both rows.

CLIENT_SECONDS=${CLIENT_SECONDS:-3}
CLIENT_CHANGES=${CLIENT_CHANGES:-1000}
CLIENT_WINDOWS=${CLIENT_WINDOWS:-"1 64"}

# client_median NAME KEY: the median of KEY over the runs' RESULT lines named NAME ("n/a" when none has it).
client_median() {
  local f line
  for f in "$WORK"/client-run-*.out; do
    line=$(grep "^RESULT name=$1 " "$f" || true)
    [[ -n $line && $line != *error=* ]] && field "$2" "$line"
  done | median
}

client_row() { # LABEL SEND-PREFIX LATENCY-NAME OTHER: one table row of medians
  local label=$1 send=$2 latency=$3 other=$4 w cells=()
  for w in $CLIENT_WINDOWS; do cells+=("$(client_median "$send-w$w" actions_per_s)"); done
  for w in $CLIENT_WINDOWS; do cells+=("$(client_median "$send-w$w" cpu_us_per_action)"); done
  cells+=("$(client_median "$latency" p50_ms)" "$(client_median "$latency" p99_ms)" \
    "$(client_median "$latency" cpu_us_per_change)")
  printf '| %s |' "$label"
  printf ' %s |' "${cells[@]}" "$other"
  echo
}

client_ratio_row() { # one row of RemoteStore ÷ raw per column
  local w cells=() key
  for w in $CLIENT_WINDOWS; do
    cells+=("$(ratio "$(client_median "send-remote-w$w" actions_per_s)" "$(client_median "send-raw-w$w" actions_per_s)")")
  done
  for w in $CLIENT_WINDOWS; do
    cells+=("$(ratio "$(client_median "send-remote-w$w" cpu_us_per_action)" "$(client_median "send-raw-w$w" cpu_us_per_action)")")
  done
  for key in p50_ms p99_ms cpu_us_per_change; do
    cells+=("$(ratio "$(client_median latency-remote "$key")" "$(client_median latency-raw "$key")")")
  done
  printf '| RemoteStore ÷ raw |'
  printf ' %s |' "${cells[@]}" ""
  echo
}

client_scenario() {
  local other r w windows header="" align=""
  windows=$(tr ' ' ',' <<<"$CLIENT_WINDOWS")
  local bench=("$ROOT/.build/release/statehouse-client-bench")
  echo
  echo "### client (Statehouse only): one RemoteStore beside a raw WebSocketClient on /ws, Counter store \`counter\`, ${CLIENT_SECONDS} s per send run, $CLIENT_CHANGES changes per latency run"
  echo
  for w in $CLIENT_WINDOWS; do header+=" actions/s W=$w |"; align+="---:|"; done
  for w in $CLIENT_WINDOWS; do header+=" client CPU µs/action W=$w |"; align+="---:|"; done
  echo "| client |$header change → receipt p50 ms | p99 ms | client CPU µs/change | other load |"
  echo "|---|${align}---:|---:|---:|---:|"
  other=$(wait_for_quiet)
  start_server statehouse
  rm -f "$WORK"/client-run-*.out
  timeout 120 taskset -c 1 "${bench[@]}" --url "http://127.0.0.1:$SERVER_PORT" --seconds 0.5 --changes 100 \
    --windows "$windows" >/dev/null || echo "bench: client warm-up failed" >&2
  for ((r = 0; r < RUNS; r++)); do
    if ! timeout 300 taskset -c 1 "${bench[@]}" --url "http://127.0.0.1:$SERVER_PORT" --seconds "$CLIENT_SECONDS" \
      --changes "$CLIENT_CHANGES" --windows "$windows" >"$WORK/client-run-$r.out"; then
      echo "bench: client run $((r + 1)) failed:" >&2; cat "$WORK/client-run-$r.out" >&2
    fi
  done
  stop_server "$SERVER_PID"
  client_row RemoteStore send-remote latency-remote "$other"
  client_row "raw WebSocketClient" send-raw latency-raw "$other"
  client_ratio_row
  echo
  echo "Medians of $RUNS runs. RemoteStore: \`try await store.send(.increment)\` from W tasks; the latency is to its"
  echo "\`observe\` callback (patch applied, state decoded as Counter.State). Raw: Benchmarks/Client/RawClient.swift, the"
  echo "/ws messages written by hand and each server message parsed with JSONValue(parsing:), nothing decoded. A driver"
  echo "connection (raw) makes each change; the next is sent once the receiver has it. The client (its loop threads and"
  echo "tasks) is pinned to CPU 1; its CPU per action or change is getrusage of the whole process."
}
