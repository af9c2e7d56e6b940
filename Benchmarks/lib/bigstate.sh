# Benchmarks/lib/bigstate.sh: scenario big-state (sourced by Benchmarks/run), Statehouse only.
# For each size in BIG_SIZES (default "1000000 5000000" bytes of state JSON), BIG_RUNS times (median), on a fresh
# server (limits.maxBodyBytes 8 MiB, no configured store): RSS at start; a TodoList store made with one PUT of that
# state and BIG_SUBS WebSocket subscribers of its whole state (each has its snapshot); then BIG_CHANGES `add`
# actions one after another, each waiting until every subscriber holds the new version, with a probe connection
# sending GET /healthz meanwhile (answer times); the peak RSS of that phase (VmHWM, reset before it through
# /proc/PID/clear_refs); the server's CPU time (utime + stime from /proc/PID/stat) over the changes, per change;
# then DELETE and the RSS 5 s later. Client: Benchmarks/loadgen/bigstate on CPU 1.
# BIG_MODES (default "state patch"): `state` subscribers get whole states and POSTs answer the state; `patch`
# subscribers ask for format=patch and POSTs send `Prefer: return=minimal`.
# BIG_BEFORE=/path/to/statehouse adds the same rows for that binary (e.g. an older revision), marked "before"
# (an older build ignores `Prefer` and answers the state).

BIG_SIZES=${BIG_SIZES:-"1000000 5000000"}
BIG_SUBS=${BIG_SUBS:-100}
BIG_CHANGES=${BIG_CHANGES:-70}
BIG_RUNS=${BIG_RUNS:-3}
BIG_MODES=${BIG_MODES:-"state patch"}

status_kib() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/status"; }

# cpu_ticks PID: utime + stime of the process, in clock ticks (the fields after the command's closing parenthesis).
cpu_ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; }

wait_output() { # FILE PATTERN SECONDS
  local deadline=$((SECONDS + $3))
  until grep -q "$2" "$1"; do ((SECONDS > deadline)) && return 1; sleep 0.05; done
}

# big_run SIZE MODE: one fresh server; prints "base loaded peak deleted change_p50 change_max post_p50 probe_p50
# probe_max cpu_ms_per_change".
big_run() {
  local size=$1 mode=$2 fifo="$WORK/big.in" out="$WORK/big.out" cpid base loaded peak deleted line ticks0 ticks1 minimal=0
  [[ $mode == patch ]] && minimal=1
  STATEHOUSE_LOG=warning STATEHOUSE_CONFIG="$WORK/bigstate.json" start_server statehouse
  sleep 0.5
  base=$(status_kib "$SERVER_PID" VmRSS)
  rm -f "$fifo"; mkfifo "$fifo"
  taskset -c 1 timeout 300 "$BENCH/.build/bigstate" --port "$SERVER_PORT" --store big --bytes "$size" \
    --subs "$BIG_SUBS" --changes "$BIG_CHANGES" --max-seconds 280 --format "$mode" --minimal "$minimal" \
    <"$fifo" >"$out" 2>&1 &
  cpid=$!
  exec 5>"$fifo"
  if wait_output "$out" '^READY' 120; then
    loaded=$(status_kib "$SERVER_PID" VmRSS)
    echo 5 >"/proc/$SERVER_PID/clear_refs" 2>/dev/null || true
    ticks0=$(cpu_ticks "$SERVER_PID")
    echo go >&5
    if wait_output "$out" '^CHANGES' 240; then
      ticks1=$(cpu_ticks "$SERVER_PID")
      peak=$(status_kib "$SERVER_PID" VmHWM)
      line=$(grep '^CHANGES' "$out")
      echo go >&5
      wait_output "$out" '^RESULT' 60 && { sleep 5; deleted=$(status_kib "$SERVER_PID" VmRSS); }
    fi
  fi
  exec 5>&-
  wait "$cpid" 2>/dev/null || true
  stop_server "$SERVER_PID"
  if [[ -z ${deleted:-} ]]; then echo "bench: big-state $size: client output:" >&2; cat "$out" >&2; return 1; fi
  echo "$base $loaded $peak $deleted $(field change_ms_p50 "$line") $(field change_ms_max "$line")" \
    "$(field post_ms_p50 "$line") $(field probe_ms_p50 "$line") $(field probe_ms_max "$line")" \
    "$(awk -v t=$((ticks1 - ticks0)) -v hz="$(getconf CLK_TCK)" -v n="$BIG_CHANGES" 'BEGIN {printf "%.2f", t * 1000 / hz / n}')"
}

# big_row LABEL SIZE MODE OTHER: BIG_RUNS runs, one table row of the medians of those that completed.
big_row() {
  local label=$1 size=$2 mode=$3 other=$4 r results=() i line failed=0
  for ((r = 0; r < BIG_RUNS; r++)); do
    if line=$(big_run "$size" "$mode"); then results+=("$line"); else failed=$((failed + 1)); fi
  done
  ((${#results[@]})) || return 1
  ((failed)) && other="$other; $failed of $BIG_RUNS runs failed"
  local medians=()
  for i in 1 2 3 4 5 6 7 8 9 10; do
    medians+=("$(printf '%s\n' "${results[@]}" | awk -v i="$i" '{print $i}' | median)")
  done
  awk -v l="$label" -v s="$size" -v m="$mode" -v o="$other" -v b="${medians[0]}" -v ld="${medians[1]}" -v pk="${medians[2]}" \
    -v d="${medians[3]}" -v c50="${medians[4]}" -v cmax="${medians[5]}" -v p50="${medians[6]}" \
    -v q50="${medians[7]}" -v qmax="${medians[8]}" -v cpu="${medians[9]}" \
    'BEGIN {printf "| %s | %.1f MB | %s | %.1f MiB | %.1f MiB | %.1f MiB | %.0fx | %.0fx | %s | %s | %s | %s | %s / %s | %.1f MiB | %+.0f%% | %s |\n",
      l, s/1e6, m, b/1024, ld/1024, pk/1024, pk*1024/s, (pk-b)*1024/s, c50, cmax, cpu, p50, q50, qmax, d/1024, (d-b)*100/b, o}'
}

big_scenario() {
  local size other labels=(after) bins=("$ROOT/.build/release/statehouse") i
  [[ -n ${BIG_BEFORE:-} ]] && { labels=(before after); bins=("$BIG_BEFORE" "$ROOT/.build/release/statehouse"); }
  cat >"$WORK/bigstate.json" <<'JSON'
{ "listen": { "host": "127.0.0.1", "port": 0 }, "limits": { "maxBodyBytes": 8388608 }, "stores": [] }
JSON
  echo
  echo "### big-state (Statehouse only): one TodoList store of S bytes of JSON, $BIG_SUBS WebSocket subscribers, $BIG_CHANGES changes, then DELETE"
  echo
  echo "| build | state S | subscribers | RSS at start | after PUT + subscribers | peak RSS during changes | peak / S | (peak − start) / S | change ms p50 | change ms max | server CPU ms / change | POST ms p50 | probe ms p50 / max | RSS 5 s after DELETE | vs start | other load |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  local mode
  for size in $BIG_SIZES; do
    for mode in $BIG_MODES; do
      for i in "${!labels[@]}"; do
        other=$(wait_for_quiet)
        STATEHOUSE_BIN=${bins[$i]} big_row "${labels[$i]}" "$size" "$mode" "$other" ||
          echo "| ${labels[$i]} | $size | $mode | failed (see the log above) |||||||||||||"
      done
    done
  done
  echo
  echo "Client: Benchmarks/loadgen/bigstate (C, epoll, CPU 1): PUT /stores/big with a TodoList state of S bytes (items of"
  echo "about 140 bytes), $BIG_SUBS WebSocket subscribers of /stores/big/ws (\`state\`: full states; \`patch\`: ?format=patch,"
  echo "and the POSTs send \`Prefer: return=minimal\`), then $BIG_CHANGES POSTs of one \`add\` one"
  echo "after another; a change's time runs from its POST until the last subscriber holds its version (a \`state\`, or"
  echo "a \`patch\`). Server CPU: utime + stime of the server process over the changes (/proc/PID/stat), per change."
  echo "The probe is a second keep-alive connection sending GET /healthz"
  echo "back to back during the changes. Peak RSS: VmHWM over the changes (reset through /proc/PID/clear_refs when"
  echo "allowed, else since start). Medians of $BIG_RUNS runs; server pinned to CPU 0, log level warning."
}
