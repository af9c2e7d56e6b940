# Benchmarks/lib/durable.sh: scenario durable (sourced by Benchmarks/run, after http.sh).
# durable-actions: the http-actions load (wrk -t1, post_action.lua) at DURABLE_CONNS (1 and 64) connections against
# Statehouse without storage (in memory) and with storage sync "commit", "interval" and "off"; every run is a fresh
# server on a fresh database in its own temp dir under $WORK, warmed up for 1 s, then loaded for HTTP_SECONDS. Beside
# it Redis (redis-server from Debian: AOF on with appendfsync always, then everysec, RDB off, a fresh dir per run)
# driven by redis-benchmark -t incr -P 1 at the same connection counts for about HTTP_SECONDS (-n from a warm-up), and
# this machine's raw rate of write(100 B) + fdatasync one after the other (loadgen/fsyncrate, a file in the same
# temp filesystem): the physical limit of one-at-a-time commits.
# recovery: one Counter store with DURABLE_ACTIONS (1,000,000) journaled actions, POSTed as JSON arrays of
# DURABLE_BATCH (1000) by lib/post_batches.py with sync "commit", then the server killed with SIGKILL; the time from
# starting `statehouse serve` to its "listening" line, RUNS times, each on a fresh copy of that database (warm page
# cache); once with snapshots and compaction pushed out of the way (every action replayed), once with the defaults.

DURABLE_CONNS=(${DURABLE_CONNS:-1 64})
DURABLE_ACTIONS=${DURABLE_ACTIONS:-1000000}
DURABLE_BATCH=${DURABLE_BATCH:-1000}

declare -A DUR_RPS=() DUR_RUNS=()
DUR_LINES=""

# durable_config DIR STORAGE_JSON: writes DIR/statehouse.json, the bench configuration plus "storage" (nothing when
# STORAGE_JSON is empty).
durable_config() {
  python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))
if sys.argv[2]: c["storage"] = json.loads(sys.argv[2])
json.dump(c, open(sys.argv[3], "w"), indent=1)' "$BENCH/statehouse-bench.json" "$2" "$1/statehouse.json"
}

# durable_row KEY LABEL: one table row from DUR_RUNS[KEY] (one line per run: "req/s p50µs p99µs errors server-cores
# server-µs/req other-load fdatasync/s"): medians, errors summed; prints the row but its ratios and other load.
durable_row() {
  local key=$1 label=$2
  durable_col() { awk -v i="$1" 'NF {print $i}' <<<"${DUR_RUNS[$key]}" | median; }
  printf '| %s | %s | %s | %s | %s | %s | %s | %s' "$label" "$(durable_col 1)" \
    "$(durable_col 2 | awk '{printf "%.2f", $1/1000}')" "$(durable_col 3 | awk '{printf "%.2f", $1/1000}')" \
    "$(durable_col 5)" "$(durable_col 6)" "$(awk 'NF {s += $4} END {print s + 0}' <<<"${DUR_RUNS[$key]}")" \
    "$(durable_col 8)"
}

durable_statehouse_run() { # SYNC CONNS: one run on a fresh server and database (SYNC memory: no storage)
  local sync=$1 conns=$2 dir url
  dir=$(mktemp -d "$WORK/durable.XXXXXX")
  if [[ $sync == memory ]]; then durable_config "$dir" ""
  else durable_config "$dir" "{\"path\": \"$dir/statehouse.sqlite\", \"sync\": \"$sync\"}"; fi
  STATEHOUSE_CONFIG=$dir/statehouse.json start_server statehouse
  url="http://127.0.0.1:$SERVER_PORT/stores/counter/actions"
  timeout 15 taskset -c 1 wrk -t1 -c"$conns" -d1s -s "$BENCH/lib/post_action.lua" "$url" >/dev/null
  DUR_LINES+="$(wrk_run "$url" "$conns")"$'\n'
  stop_server "$SERVER_PID"
  rm -rf "$dir"
}

redis_bench() { # CONNS N: redis-benchmark INCR, no pipelining; prints its CSV fields "rps,avg,min,p50,p95,p99,max" (ms)
  timeout $((HTTP_SECONDS * 3 + 30)) taskset -c 1 redis-benchmark -h 127.0.0.1 -p "$SERVER_PORT" -t incr -c "$1" \
    -P 1 -n "$2" --csv | sed -n 's/^"INCR",//p' | tr -d '"'
}

durable_redis_run() { # FSYNC CONNS: one run on a fresh redis-server (appendfsync FSYNC) in a fresh dir
  local fsync=$1 conns=$2 dir n=100 sent=0 t0 t1 w0 w1 csv value
  dir=$(mktemp -d "$WORK/durable.XXXXXX")
  REDIS_DIR=$dir REDIS_FSYNC=$fsync start_server redis
  # Warm-up, and the -n that lasts about HTTP_SECONDS: grow n until one run takes 0.5 s.
  while :; do
    w0=$EPOCHREALTIME; redis_bench "$conns" "$n" >/dev/null || true; w1=$EPOCHREALTIME
    sent=$((sent + n))
    awk -v a="$w0" -v b="$w1" -v n="$n" 'BEGIN {exit !(b - a >= 0.5 || n >= 4000000)}' && break
    n=$((n * 4))
  done
  n=$(awk -v a="$w0" -v b="$w1" -v n="$n" -v s="$HTTP_SECONDS" -v c="$conns" \
    'BEGIN {m = int(n / (b - a) * s); if (m < c) m = c; print m}')
  t0=$(server_cpu_ticks "$SERVER_PID"); w0=$EPOCHREALTIME
  csv=$(redis_bench "$conns" "$n")
  w1=$EPOCHREALTIME; t1=$(server_cpu_ticks "$SERVER_PID")
  sent=$((sent + n))
  value=$(timeout 5 redis-cli -h 127.0.0.1 -p "$SERVER_PORT" get counter:__rand_int__ || echo 0)
  IFS=, read -r rps _ _ p50 _ p99 _ <<<"$csv"
  # errors: increments sent that the counter does not hold (and a run without a result counts as one)
  DUR_LINES+="$(awk -v r="${rps:-0}" -v a="${p50:-0}" -v b="${p99:-0}" -v e=$((sent - ${value:-0} + (${#csv} ? 0 : 1))) \
    'BEGIN {printf "%.0f %.0f %.0f %d", r, a * 1000, b * 1000, e}') $(cpu_cores $((t1 - t0)) \
    "$(awk -v a="$w0" -v b="$w1" 'BEGIN {print b - a}')") $(cpu_us_per $((t1 - t0)) "$n")"$'\n'
  stop_server "$SERVER_PID"
  rm -rf "$dir"
}

durable_fsync_run() { # one run of loadgen/fsyncrate on CPU 0 (a file in the temp filesystem)
  local dir line
  dir=$(mktemp -d "$WORK/durable.XXXXXX")
  line=$(timeout $((HTTP_SECONDS + 15)) taskset -c 0 "$BENCH/.build/fsyncrate" --file "$dir/fsync.bin" \
    --seconds "$HTTP_SECONDS" | grep '^RESULT' || echo "RESULT error=failed")
  [[ $line == *error=* ]] && echo "bench: durable fsyncrate: $line" >&2
  DUR_LINES+="$(field per_s "$line") $(field p50_us "$line") $(field p99_us "$line") $([[ $line == *error=* ]] && echo 1 || echo 0) n/a n/a"$'\n'
  rm -rf "$dir"
}

durable_disk() { # this machine's fdatasync/s right now (1 s of loadgen/fsyncrate)
  local dir line
  dir=$(mktemp -d "$WORK/durable.XXXXXX")
  line=$(timeout 15 taskset -c 0 "$BENCH/.build/fsyncrate" --file "$dir/probe.bin" --seconds 1 | grep '^RESULT' || true)
  rm -rf "$dir"
  echo "$(field per_s "$line")"
}

# The rows, in table order: KIND/SETTING/CONNECTIONS (the raw fsync loop has one writer).
durable_keys() {
  local c sync fsync
  echo "fsync/-/1"
  for fsync in always everysec; do for c in "${DURABLE_CONNS[@]}"; do echo "redis/$fsync/$c"; done; done
  for sync in memory commit interval off; do for c in "${DURABLE_CONNS[@]}"; do echo "statehouse/$sync/$c"; done; done
}

durable_actions() {
  local r key kind setting c other disk label ra redis
  local keys=()
  mapfile -t keys < <(durable_keys)
  redis="redis $(redis-server --version | sed -n 's/.*v=\([0-9.]*\).*/\1/p')"
  # Round-robin: run r of every row, then run r + 1, so drift of the machine (its fdatasync rate swings 10x when
  # other work writes) spreads over all rows instead of landing on a few.
  for ((r = 0; r < RUNS; r++)); do
    for key in "${keys[@]}"; do
      IFS=/ read -r kind setting c <<<"$key"
      log "durable: run $((r + 1))/$RUNS: $kind $setting, $c connection(s)"
      other=$(wait_for_quiet)
      disk=$(durable_disk)
      case $kind in
        fsync) durable_fsync_run ;;
        redis) durable_redis_run "$setting" "$c" ;;
        statehouse) durable_statehouse_run "$setting" "$c" ;;
      esac
      DUR_RUNS[$key]+="${DUR_LINES%$'\n'} $other ${disk:-0}"$'\n'
      DUR_LINES=""
    done
  done
  echo
  echo "### durable-actions: POST /stores/counter/actions {\"type\":\"increment\"} (wrk -t1 -cN -d${HTTP_SECONDS}s), Redis INCR (redis-benchmark -P 1 -cN), raw fdatasync; a fresh database per run"
  echo
  echo "| server | sync | connections | req/s | p50 ms | p99 ms | server CPU (cores) | server CPU µs/req | errors + non-2xx | fdatasync/s just before | this ÷ Statehouse in memory | this ÷ Redis always | other load |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for key in "${keys[@]}"; do DUR_RPS[$key]=$(awk 'NF {print $1}' <<<"${DUR_RUNS[$key]}" | median); done
  for key in "${keys[@]}"; do
    IFS=/ read -r kind setting c <<<"$key"
    case $kind in
      fsync) label="write(100 B) + fdatasync loop | — | 1 (one writer)" ;;
      redis) label="$redis | appendfsync $setting | $c" ;;
      statehouse) [[ $setting == memory ]] && label="statehouse | (in memory) | $c" || label="statehouse | sync $setting | $c" ;;
    esac
    durable_row "$key" "$label"
    printf ' | %s | %s | %s |\n' "$(ratio "${DUR_RPS[$key]}" "${DUR_RPS[statehouse/memory/$c]:-}")" \
      "$(ratio "${DUR_RPS[$key]}" "${DUR_RPS[redis/always/$c]:-}")" \
      "$(awk -v i=7 'NF {print $i}' <<<"${DUR_RUNS[$key]}" | median)"
  done
  echo
  for c in "${DURABLE_CONNS[@]}"; do
    ra=${DUR_RPS[statehouse/commit/$c]:-}
    echo "sync commit at $c connection$( ((c == 1)) || echo s): $(ratio "$ra" "${DUR_RPS[statehouse/memory/$c]:-}")× in memory," \
      "$(ratio "$ra" "${DUR_RPS[redis/always/$c]:-}")× Redis appendfsync always," \
      "$(ratio "$ra" "${DUR_RPS[fsync/-/1]:-}")× the raw fdatasync loop."
  done
  echo "Goals (issue 13), at 64 connections: sync commit ≥ 0.5× in memory and ≥ 1× Redis appendfsync always."
  echo "Filesystem of the databases, AOFs and fsync files: $(df -T "$WORK" | awk 'NR == 2 {print $2 " on " $1}');" \
    "rows ran round-robin, run 1 of every row, then run 2, …; \"fdatasync/s just before\": 1 s of the same loop right before each run (median)."
}

# durable_listen CONFIG: starts statehouse (CPU 0) on CONFIG and sets DUR_MS to the ms from its start to its
# "listening" line ("failed" if it exits or stays silent for 60 s); the server keeps running (SERVER_PID).
durable_listen() {
  local fifo=$WORK/listen.fifo line t0 t1=""
  SERVER_PORT=$(free_port)
  rm -f "$fifo"; mkfifo "$fifo"
  t0=$EPOCHREALTIME
  taskset -c 0 "$ROOT/.build/release/statehouse" serve --config "$1" --port "$SERVER_PORT" >"$fifo" 2>"$WORK/recovery.log" &
  SERVER_PID=$!
  STARTED_PIDS+=("$SERVER_PID")
  exec {DUR_FD}<"$fifo"
  while IFS= read -r -t 60 -u "$DUR_FD" line; do
    if [[ $line == *"listening on"* ]]; then t1=$EPOCHREALTIME; break; fi
  done
  if [[ -n $t1 ]]; then DUR_MS=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", (b - a) * 1000}')
  else DUR_MS=failed; echo "bench: durable recovery: no listening line; stderr:" >&2; cat "$WORK/recovery.log" >&2; fi
}

durable_unlisten() { stop_server "$SERVER_PID"; exec {DUR_FD}<&-; rm -f "$WORK/listen.fifo"; }

# durable_recovery_row LABEL STORAGE_JSON_EXTRA: builds the database (sync commit), kills the server, times RUNS
# starts on fresh copies; STORAGE_JSON_EXTRA is more "storage" members (", \"retainActions\": …"), or "none" for
# the in-memory baseline.
durable_recovery_row() {
  local label=$1 extra=$2 dir=$WORK/recovery-build run=$WORK/recovery-run line="" r ms=() state="" rows="" snaps="" mb="" rate=""
  rm -rf "$dir"; mkdir -p "$dir"
  if [[ $extra == none ]]; then
    durable_config "$dir" ""
  else
    durable_config "$dir" "{\"path\": \"$dir/statehouse.sqlite\", \"sync\": \"commit\"$extra}"
    STATEHOUSE_CONFIG=$dir/statehouse.json start_server statehouse
    line=$(timeout 300 taskset -c 1 python3 "$BENCH/lib/post_batches.py" --port "$SERVER_PORT" --count "$DURABLE_ACTIONS" \
      --batch "$DURABLE_BATCH" --max-seconds 280 | grep '^RESULT' || echo "RESULT error=failed")
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    if [[ $line == *error=* ]]; then echo "bench: durable recovery $label: build: $line" >&2; return; fi
    rate=$(awk -v n="$(field actions "$line")" -v s="$(field seconds "$line")" 'BEGIN {printf "%.0f", n / s}')
    mb=$(cat "$dir"/statehouse.sqlite "$dir"/statehouse.sqlite-wal 2>/dev/null | wc -c | awk '{printf "%.1f", $1 / 1048576}')
    if command -v sqlite3 >/dev/null; then # on a throwaway copy: opening it checkpoints the WAL
      rm -rf "$run"; mkdir -p "$run"; cp "$dir"/statehouse.sqlite* "$run"/
      rows=$(sqlite3 "$run/statehouse.sqlite" 'select count(*) from journal' 2>/dev/null || echo "?")
      snaps=$(sqlite3 "$run/statehouse.sqlite" 'select count(*) from snapshots' 2>/dev/null || echo "?")
    fi
  fi
  for ((r = 0; r < RUNS; r++)); do
    rm -rf "$run"; mkdir -p "$run"
    if [[ $extra == none ]]; then durable_config "$run" ""
    else
      cp "$dir"/statehouse.sqlite* "$run"/
      durable_config "$run" "{\"path\": \"$run/statehouse.sqlite\", \"sync\": \"commit\"$extra}"
    fi
    durable_listen "$run/statehouse.json"
    ms+=("$DUR_MS")
    [[ $DUR_MS != failed ]] && state=$(timeout 5 curl -s "http://127.0.0.1:$SERVER_PORT/stores/counter" || echo "?")
    durable_unlisten
  done
  rm -rf "$run" "$dir"
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "${rows:-—}" "${snaps:-—}" "${mb:-—}" "${rate:-—}" \
    "$(printf '%s\n' "${ms[@]}" | median)" "$(printf '%s\n' "${ms[@]}" | sort -g | head -1) – $(printf '%s\n' "${ms[@]}" | maximum)" \
    "$(sed -n 's/.*"version":\([0-9]*\).*"state":\(.*\)}$/v\1 \2/p' <<<"$state")"
}

durable_recovery() {
  echo
  echo "### recovery: \`statehouse serve\` start to its \"listening\" line, one Counter store of $DURABLE_ACTIONS actions (POSTed as arrays of $DURABLE_BATCH, sync commit, then SIGKILL); median of $RUNS starts, each on a fresh copy"
  echo
  echo "| database | journal rows | snapshots | database + WAL MB | build (actions/s) | start → listening ms | min – max | state after start |"
  echo "|---|---:|---:|---:|---:|---:|---:|---|"
  wait_for_quiet >/dev/null
  log "durable: recovery, no storage (baseline)"
  durable_recovery_row "no storage (start-up baseline)" none
  log "durable: recovery, every action journaled, one snapshot"
  durable_recovery_row "snapshotEveryActions 10^8, snapshotEveryBytes 2^40, retainActions 10^6 (every action replayed)" \
    ', "snapshotEveryActions": 100000000, "snapshotEveryBytes": 1099511627776, "retainActions": 1000000'
  log "durable: recovery, default snapshots and retention"
  durable_recovery_row "defaults (snapshot every 1000 actions or 4 MiB, retainActions 10000)" ""
  echo
  echo "Goal (issue 13): a store with 1,000,000 journaled actions recovered in under 2 s. The state after each start is"
  echo "checked (GET /stores/counter: the version and count must be the number of actions POSTed)."
}

durable_scenario() {
  durable_actions
  durable_recovery
}
