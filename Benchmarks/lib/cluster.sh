# Benchmarks/lib/cluster.sh: scenario cluster (issue 19; sourced by Benchmarks/run, after http.sh and durable.sh).
# A cluster of 1, 2 and 3 nodes (CLUSTER_NODES) over one redis-server of its own (a free loopback port, AOF with
# appendfsync always as `make cluster` runs it, its dir under $WORK, a fresh one per cluster), every node started as
# `statehouse serve --config F --port 0 --node nK` with the bench configuration plus "storage": {"redis": URL}. Redis
# and every node run on CPU 0 (the server side shares one core, as the single server has it), the load generators on
# CPU 1. Node n1 is made the owner of `counter` and `ticker` (one action sent to it first).
#  - http-actions: the http scenario's load (wrk, POST {"type":"increment"} to `counter`, keep-alive) with its 64
#    connections spread over the nodes (one wrk thread per node: -t2 -c64, -t3 -c63), after 1 s of warm-up; beside
#    it, in the same run, the single server in memory and with SQLite sync "commit" (the durable scenario's config),
#    1 node at 1 connection (every action its own commit), and 2 nodes with all the load on the owner (the other
#    node only follows) and all on the follower (every action forwarded).
#  - fanout: the fanout scenario's wsfanout with its S=100 subscribers spread over the nodes (subscriber i on node
#    i mod N), the publisher on the owner; closed loop (window 16) and 200 actions/s; beside it the single server.
#  - per action, over all RUNS runs of a row together: Redis commands (INFO commandstats deltas: FCALL, PUBLISH sent
#    by nodes, XRANGE, the rest, and the commands Redis ran inside the functions), Redis socket reads
#    (total_reads_processed), CPU of every node process and of redis-server (utime + stime, /proc/PID/stat), divided
#    by the actions the store committed (its version's delta on the owner); the owner's CPU apart, and each node's
#    CPU by thread (/proc/PID/task: statehouse-loop, redis-sub, the rest).
#  - the design's limits: Redis memory per idle store (CLUSTER_STORES Counter stores on one node, INFO memory
#    used_memory after start and after one action each, MEMORY USAGE of each key of one store), the cost of renewing
#    their leases while idle, and Redis connections per node.
# Sizes: CLUSTER_SECONDS (4) per run, RUNS runs per row, CLUSTER_STORES (1000), CLUSTER_QUIET_SECONDS (5: how long
# to wait for a quiet machine before each setup). About 4 minutes at RUNS=3.

CLUSTER_SECONDS=${CLUSTER_SECONDS:-4}
CLUSTER_NODES=(${CLUSTER_NODES:-1 2 3})
CLUSTER_STORES=${CLUSTER_STORES:-1000}
CLUSTER_QUIET_SECONDS=${CLUSTER_QUIET_SECONDS:-5}
# subs | mode flags | warm-up actions (as the fanout scenario's S=100 rows)
CLUSTER_FANOUT_MODES=("100|--window 16|500" "100|--rate 200|100")

CL_REDIS_PID=""
CL_REDIS_PORT=""
CL_NODE_PIDS=()
CL_NODE_PORTS=()
# Per row key: "runs" lines, and sums over the runs (actions, ticks, Redis counters).
declare -A CL_ACTIONS=() CL_NODE_TICKS=() CL_OWNER_TICKS=() CL_REDIS_TICKS=() CL_CMD=() CL_LABEL=() CL_RPS=()
CL_KEYS=()
CL_HTTP_ROWS=""
CL_CLIENTS=""
CL_FANOUT_ROWS=""
# Commands Redis runs inside the statehouse functions (docs/cluster.md; ClusterKeys.swift): counted by commandstats
# like the nodes' own commands, so they are told apart by name (PUBLISH: the commit's is one per commit).
CL_INNER="get hget hset hsetnx hmget xadd xtrim zadd zrangebyscore hdel zrem pexpire incr set del pttl"

cl_quiet() { QUIET_MAX_SECONDS=$CLUSTER_QUIET_SECONDS wait_for_quiet; }
cl_mode_key() { cut -d'|' -f2 <<<"$1" | tr -d ' -'; } # "100|--window 16|500" → window16

# cl_redis_counters: "name calls usec" per command of INFO commandstats, plus "_reads N 0" (total_reads_processed).
cl_redis_counters() {
  { timeout 5 redis-cli -p "$CL_REDIS_PORT" INFO commandstats | tr -d '\r' |
    sed -n 's/^cmdstat_\([^:]*\):calls=\([0-9]*\),usec=\([0-9]*\).*/\1 \2 \3/p'
  timeout 5 redis-cli -p "$CL_REDIS_PORT" INFO stats | tr -d '\r' | sed -n 's/^total_reads_processed:\([0-9]*\)/_reads \1 0/p'
  } || log "cluster: INFO failed"
}

# cl_redis_cpu_s: redis-server's CPU time so far, s (INFO cpu: used_cpu_sys + used_cpu_user, µs resolution).
cl_redis_cpu_s() {
  timeout 5 redis-cli -p "$CL_REDIS_PORT" INFO cpu | tr -d '\r' |
    awk -F: '$1 == "used_cpu_sys" || $1 == "used_cpu_user" {s += $2} END {printf "%.6f", s}'
}

# cl_thread_ticks PID: "loop redis-sub other" CPU ticks of the process's threads by name (/proc/PID/task/*/comm:
# statehouse-loop, redis-sub; "other": the rest, among them the Redis workers, whose names do not reach comm).
cl_thread_ticks() {
  local t
  for t in /proc/"$1"/task/*; do echo "$(cat "$t/comm" 2>/dev/null) $(awk '{print $14 + $15}' "$t/stat" 2>/dev/null || echo 0)"; done |
    awk '$1 == "statehouse-loop" {l += $2; next} $1 == "redis-sub" {r += $2; next} {o += $2} END {print l + 0, r + 0, o + 0}'
}

cl_node_ticks() {
  local total=0 pid
  for pid in "${CL_NODE_PIDS[@]}"; do total=$((total + $(server_cpu_ticks "$pid"))); done
  echo "$total"
}

# cl_version PORT STORE: the store's version as that server sees it.
cl_version() {
  timeout 5 curl -s "http://127.0.0.1:$1/stores/$2" | sed -n 's/.*"version":\([0-9]*\).*/\1/p' || log "cluster: GET $2 failed"
}

# cl_probe STORE: sets CL_PROBE to "node-ticks redis-ticks version owner-ticks" (the owner: node 1) and, with Redis, writes $WORK/cl-counters.N
# (N: CL_PROBES). Not in a subshell: it counts the probes.
CL_PROBES=0
CL_PROBE=""
cl_probe() {
  CL_PROBES=$((CL_PROBES + 1))
  if [[ -n $CL_REDIS_PID ]]; then
    cl_redis_counters >"$WORK/cl-counters.$CL_PROBES"
    CL_PROBE="$(cl_node_ticks) $(server_cpu_ticks "$CL_REDIS_PID") $(cl_version "${CL_NODE_PORTS[0]}" "$1")"
  else
    CL_PROBE="$(cl_node_ticks) 0 $(cl_version "${CL_NODE_PORTS[0]}" "$1")"
  fi
  CL_PROBE+=" $(server_cpu_ticks "${CL_NODE_PIDS[0]}")"
}

# cl_account KEY BEFORE AFTER: adds the deltas between two cl_probe lines (and counter files) to KEY's sums.
cl_account() {
  local key=$1 n0 r0 v0 o0 n1 r1 v1 o1 name calls usec
  read -r n0 r0 v0 o0 <<<"$2"
  read -r n1 r1 v1 o1 <<<"$3"
  CL_OWNER_TICKS[$key]=$((${CL_OWNER_TICKS[$key]:-0} + o1 - o0))
  CL_ACTIONS[$key]=$((${CL_ACTIONS[$key]:-0} + ${v1:-0} - ${v0:-0}))
  CL_NODE_TICKS[$key]=$((${CL_NODE_TICKS[$key]:-0} + n1 - n0))
  CL_REDIS_TICKS[$key]=$((${CL_REDIS_TICKS[$key]:-0} + r1 - r0))
  [[ -n $CL_REDIS_PID ]] || return 0
  while read -r name calls usec; do
    CL_CMD[$key/$name]=$((${CL_CMD[$key/$name]:-0} + calls))
    CL_CMD[$key/$name.usec]=$((${CL_CMD[$key/$name.usec]:-0} + usec))
  done < <(awk 'NR == FNR {c[$1] = $2; u[$1] = $3; next} {print $1, $2 - c[$1], $3 - u[$1]}' \
    "$WORK/cl-counters.$((CL_PROBES - 1))" "$WORK/cl-counters.$CL_PROBES")
}

# cl_start_redis: a fresh redis-server (AOF, appendfsync always) in a fresh dir, CPU 0.
cl_start_redis() {
  local dir
  dir=$(mktemp -d "$WORK/cluster-redis.XXXXXX")
  REDIS_DIR=$dir REDIS_FSYNC=always start_server redis
  CL_REDIS_PID=$SERVER_PID
  CL_REDIS_PORT=$SERVER_PORT
}

# cl_start_node K CONFIG: node nK of CONFIG on CPU 0 at a port of its own choosing (its "listening on" line).
cl_start_node() {
  local k=$1 log=$WORK/cluster-n$1.log pid port="" deadline=$((SECONDS + 30))
  taskset -c 0 "$ROOT/.build/release/statehouse" serve --config "$2" --port 0 --node "n$k" >"$log" 2>&1 &
  pid=$!
  STARTED_PIDS+=("$pid")
  until port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$log"); [[ -n $port ]]; do
    if ((SECONDS > deadline)) || ! kill -0 "$pid" 2>/dev/null; then
      echo "node n$k did not start; its log:" >&2; cat "$log" >&2; return 1
    fi
    sleep 0.05
  done
  CL_NODE_PIDS+=("$pid")
  CL_NODE_PORTS+=("$port")
}

# cl_up N: Redis and N nodes serving the bench stores; n1 owns counter and ticker.
cl_up() {
  local n=$1 k dir
  cl_start_redis
  dir=$(mktemp -d "$WORK/cluster.XXXXXX")
  durable_config "$dir" "{\"redis\": \"redis://127.0.0.1:$CL_REDIS_PORT\"}"
  CL_NODE_PIDS=(); CL_NODE_PORTS=()
  for ((k = 1; k <= n; k++)); do cl_start_node "$k" "$dir/statehouse.json"; done
  timeout 10 curl -s -o /dev/null -d '{"type":"increment"}' "http://127.0.0.1:${CL_NODE_PORTS[0]}/stores/counter/actions" ||
    log "cluster: the first action to counter failed"
  timeout 10 curl -s -o /dev/null -d '{"type":"publish","payload":{"seq":0,"t":0}}' \
    "http://127.0.0.1:${CL_NODE_PORTS[0]}/stores/ticker/actions" || log "cluster: the first action to ticker failed"
  local lease
  lease=$(timeout 5 redis-cli -p "$CL_REDIS_PORT" GET '{s:counter}:lease' || true)
  [[ $lease == n1:* ]] || log "cluster: counter's lease is \"$lease\", not n1's"
  cl_health
}

# cl_health: warns (stderr) about every node that does not answer GET /healthz.
cl_health() {
  local i
  for i in "${!CL_NODE_PORTS[@]}"; do
    timeout 3 curl -sf -o /dev/null "http://127.0.0.1:${CL_NODE_PORTS[$i]}/healthz" ||
      log "cluster: node n$((i + 1)) (pid ${CL_NODE_PIDS[$i]}, port ${CL_NODE_PORTS[$i]}) does not answer /healthz$(kill -0 "${CL_NODE_PIDS[$i]}" 2>/dev/null || echo "; it has exited")"
  done
}

# cl_down: SIGTERM to every node at once (each drains: releases its leases), then Redis. The nodes' logs are kept in
# Benchmarks/.results/cluster-logs/ (the last run's).
cl_down() {
  local pid k
  cl_health
  mkdir -p "$BENCH/.results/cluster-logs"
  for ((k = 1; k <= ${#CL_NODE_PIDS[@]}; k++)); do
    cp "$WORK/cluster-n$k.log" "$BENCH/.results/cluster-logs/${#CL_NODE_PIDS[@]}-nodes-n$k.log" 2>/dev/null || true
  done
  for pid in "${CL_NODE_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${CL_NODE_PIDS[@]}"; do stop_server "$pid"; done
  [[ -n $CL_REDIS_PID ]] && stop_server "$CL_REDIS_PID"
  CL_NODE_PIDS=(); CL_NODE_PORTS=(); CL_REDIS_PID=""; CL_REDIS_PORT=""
}

# cl_single CONFIG: one statehouse (CPU 0) as the reference; its pid and port stand in as "node 1".
cl_single() {
  STATEHOUSE_CONFIG=$1 start_server statehouse
  CL_NODE_PIDS=("$SERVER_PID"); CL_NODE_PORTS=("$SERVER_PORT"); CL_REDIS_PID=""
}

cl_single_down() { stop_server "${CL_NODE_PIDS[0]}"; CL_NODE_PIDS=(); CL_NODE_PORTS=(); }

# Thread split of every node's CPU (2-node rows): CL_THR[KEY/node index/kind] sums of ticks.
declare -A CL_THR=()
CL_THR_BEFORE=()
cl_threads_before() {
  local i
  CL_THR_BEFORE=()
  for i in "${!CL_NODE_PIDS[@]}"; do CL_THR_BEFORE[$i]=$(cl_thread_ticks "${CL_NODE_PIDS[$i]}"); done
}
cl_threads_after() { # KEY
  local i l0 s0 o0 l1 s1 o1
  for i in "${!CL_NODE_PIDS[@]}"; do
    read -r l0 s0 o0 <<<"${CL_THR_BEFORE[$i]}"
    read -r l1 s1 o1 <<<"$(cl_thread_ticks "${CL_NODE_PIDS[$i]}")"
    CL_THR[$1/$i/loop]=$((${CL_THR[$1/$i/loop]:-0} + l1 - l0))
    CL_THR[$1/$i/sub]=$((${CL_THR[$1/$i/sub]:-0} + s1 - s0))
    CL_THR[$1/$i/other]=$((${CL_THR[$1/$i/other]:-0} + o1 - o0))
  done
}

# cl_thread_rows: per action and thread, the rows of 2 nodes (and 1 node) at 64 connections.
cl_thread_rows() {
  local key i
  echo
  echo "### cluster: node CPU per action by thread (µs; statehouse-loop: HTTP and the store; redis-sub: the subscriber thread, forwarded actions, answers and published rows; other: Redis workers and the rest)"
  echo
  echo "| setup | node | statehouse-loop | redis-sub | other threads | the node |"
  echo "|---|---|---:|---:|---:|---:|"
  for key in http-1 http-2-owner http-2-follower http-2 http-3; do
    [[ -n ${CL_THR[$key/0/loop]:-} ]] || continue
    for i in 0 1 2; do
      [[ -n ${CL_THR[$key/$i/loop]:-} ]] || continue
      printf '| %s | n%s%s | %s | %s | %s | %s |\n' "${CL_LABEL[$key]}" $((i + 1)) "$( ((i == 0)) && echo " (owner)")" \
        "$(cpu_us_per "${CL_THR[$key/$i/loop]}" "${CL_ACTIONS[$key]}")" "$(cpu_us_per "${CL_THR[$key/$i/sub]}" "${CL_ACTIONS[$key]}")" \
        "$(cpu_us_per "${CL_THR[$key/$i/other]}" "${CL_ACTIONS[$key]}")" \
        "$(cpu_us_per $((CL_THR[$key/$i/loop] + CL_THR[$key/$i/sub] + CL_THR[$key/$i/other])) "${CL_ACTIONS[$key]}")"
    done
  done
}

# cl_http_row KEY LABEL CONNS OTHER [PORTS]: RUNS wrk loads spread over PORTS (default: every node's; one wrk thread
# per port).
cl_http_row() {
  local key=$1 label=$2 conns=$3 other=$4 ports=(${5:-${CL_NODE_PORTS[*]}}) url r before after line a b c d e
  local n=${#ports[@]} rps=() p50=() p99=() errs=0
  url="http://127.0.0.1:${ports[0]}/stores/counter/actions"
  ((n > 1)) && conns=$((conns / n * n))
  CL_KEYS+=("$key"); CL_LABEL[$key]="$label, http-actions, $conns connection$( ((conns == 1)) || echo s)"
  WRK_PORTS="${ports[*]}" timeout 15 taskset -c 1 wrk -t"$n" -c"$conns" -d1s \
    -s "$BENCH/lib/post_action_nodes.lua" "$url" >/dev/null || log "cluster: $label: the warm-up failed ($?)"
  for ((r = 0; r < RUNS; r++)); do
    cl_threads_before
    cl_probe counter; before=$CL_PROBE
    line=$(WRK_PORTS="${ports[*]}" timeout $((CLUSTER_SECONDS + 15)) taskset -c 1 wrk -t"$n" -c"$conns" \
      -d"${CLUSTER_SECONDS}s" -s "$BENCH/lib/post_action_nodes.lua" "$url" | sed -n 's/^RESULT //p' ||
      log "cluster: $label: wrk failed")
    cl_probe counter; after=$CL_PROBE
    cl_threads_after "$key"
    cl_account "$key" "$before" "$after"
    read -r a b c d e <<<"$line"
    rps+=("${a:-0}"); p50+=("${b:-0}"); p99+=("${c:-0}"); errs=$((errs + ${d:-1} + ${e:-0}))
    ((${d:-1} + ${e:-0} == 0)) || { log "cluster: $label: $((${d:-1} + ${e:-0})) errors"; cl_health; }
  done
  CL_RPS[$key]=$(printf '%s\n' "${rps[@]}" | median)
  CL_HTTP_ROWS+=$(printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |' "$label" "$conns" "${CL_RPS[$key]}" \
    "$(printf '%s\n' "${p50[@]}" | median | awk '{printf "%.2f", $1/1000}')" \
    "$(printf '%s\n' "${p99[@]}" | median | awk '{printf "%.2f", $1/1000}')" \
    "$(cpu_cores $((CL_NODE_TICKS[$key] + CL_REDIS_TICKS[$key])) $((RUNS * CLUSTER_SECONDS)))" "$errs" \
    "$(ratio "${CL_RPS[$key]}" "${CL_RPS[http-memory]:-}")" "$other")$'\n'
}

# cl_fanout_row KEY LABEL MODE OTHER: RUNS wsfanout loads, the publisher on node 1, subscribers over every node.
cl_fanout_row() {
  local key=$1 label=$2 mode=$3 other=$4 subs flags warmup r line before after ports
  IFS='|' read -r subs flags warmup <<<"$mode"
  local dps=() p50=() p99=() mx=() missing=0 conflated=0
  CL_KEYS+=("$key"); CL_LABEL[$key]="$label, fanout ${flags#--}"
  ports=$(IFS=,; echo "${CL_NODE_PORTS[*]}")
  for ((r = 0; r < RUNS; r++)); do
    cl_probe ticker; before=$CL_PROBE
    # shellcheck disable=SC2086
    line=$(timeout $((CLUSTER_SECONDS + 60)) taskset -c 1 "$BENCH/.build/wsfanout" --port "${CL_NODE_PORTS[0]}" \
      --sub-ports "$ports" --subs "$subs" $flags --warmup "$warmup" --duration "$CLUSTER_SECONDS" \
      --max-seconds $((CLUSTER_SECONDS + 50)) 2>>"$WORK/wsfanout.err" | grep '^RESULT' || echo "RESULT error=failed")
    cl_probe ticker; after=$CL_PROBE
    cl_account "$key" "$before" "$after"
    if [[ $line == *error=* ]]; then echo "bench: cluster $label $mode: $line" >&2; continue; fi
    dps+=("$(field deliveries_per_s "$line")"); p50+=("$(field p50_us "$line")"); p99+=("$(field p99_us "$line")")
    mx+=("$(field max_us "$line")")
    missing=$((missing + $(field missing "$line"))); conflated=$((conflated + $(field conflated "$line")))
  done
  CL_FANOUT_ROWS+=$(printf '| %s | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s |' "$label" "$subs" "${flags#--}" \
    "$(printf '%s\n' "${dps[@]}" | median)" \
    "$(printf '%s\n' "${p50[@]}" | median | awk '{printf "%.2f", $1/1000}')" \
    "$(printf '%s\n' "${p99[@]}" | median | awk '{printf "%.2f", $1/1000}')" \
    "$(printf '%s\n' "${mx[@]}" | median | awk '{printf "%.1f", $1/1000}')" "$missing" "$conflated" \
    "$(awk -v t=$((CL_NODE_TICKS[$key] + CL_REDIS_TICKS[$key])) -v a="${CL_ACTIONS[$key]}" -v s="$subs" \
      'BEGIN {if (a > 0) printf "%.2f", t * 10000 / (a * s); else printf "n/a"}')" "$other")$'\n'
}

# cl_per KEY NAME: calls of command NAME per action in row KEY (3 decimals).
cl_per() { awk -v c="${CL_CMD[$1/$2]:-0}" -v a="${CL_ACTIONS[$1]:-0}" 'BEGIN {if (a > 0) printf "%.3f", c / a; else printf "n/a"}'; }

# cl_commits KEY: the commits of row KEY: FCALLs but the lease renewals (each runs one PEXPIRE) and takes (one INCR).
cl_commits() { echo $((${CL_CMD[$1/fcall]:-0} - ${CL_CMD[$1/pexpire]:-0} - ${CL_CMD[$1/incr]:-0})); }
cl_commits_per() { awk -v a="${CL_ACTIONS[$1]:-0}" -v c="$(cl_commits "$1")" 'BEGIN {if (c > 0) printf "%.1f", a / c; else printf "n/a"}'; }
# cl_node_publishes KEY: PUBLISH sent by the nodes (forwards and answers): all PUBLISH − the commits' own (one each).
cl_node_publishes() { echo $((${CL_CMD[$1/publish]:-0} - $(cl_commits "$1"))); }

# cl_action_row KEY: the per-action figures of one row.
cl_action_row() {
  local key=$1 a=${CL_ACTIONS[$1]:-0} commits inner=0 pub outer total name
  if [[ -z ${CL_CMD[$key/_reads]:-} ]]; then
    printf '| %s | %s | — | — | — | — | — | — | — | — | %s | — | — | %s |\n' "${CL_LABEL[$key]}" "$a" \
      "$(cpu_us_per "${CL_NODE_TICKS[$key]}" "$a")" "$(cpu_us_per "${CL_NODE_TICKS[$key]}" "$a")"
    return
  fi
  commits=$(cl_commits "$key")
  for name in $CL_INNER; do inner=$((inner + ${CL_CMD[$key/$name]:-0})); done
  inner=$((inner + commits))                         # the commits' own PUBLISH
  pub=$(cl_node_publishes "$key")
  total=0
  for name in "${!CL_CMD[@]}"; do
    [[ $name == "$key/"* && $name != *.usec && $name != "$key/_reads" ]] || continue
    total=$((total + CL_CMD[$name]))
  done
  # the nodes' commands: all but those inside functions and this script's INFO
  outer=$((total - inner - ${CL_CMD[$key/info]:-0}))
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "${CL_LABEL[$key]}" "$a" \
    "$(cl_commits_per "$key")" \
    "$(cl_per "$key" fcall)" "$(awk -v c="$pub" -v a="$a" 'BEGIN {printf "%.3f", c / a}')" "$(cl_per "$key" xrange)" \
    "$(awk -v c="$((outer - ${CL_CMD[$key/fcall]:-0} - pub - ${CL_CMD[$key/xrange]:-0}))" -v a="$a" 'BEGIN {printf "%.3f", c / a}')" \
    "$(awk -v c="$inner" -v a="$a" 'BEGIN {printf "%.2f", c / a}')" "$(cl_per "$key" _reads)" \
    "$(awk -v u="${CL_CMD[$key/fcall.usec]:-0}" -v c="${CL_CMD[$key/fcall]:-0}" 'BEGIN {if (c > 0) printf "%.1f", u / c; else printf "n/a"}')" \
    "$(cpu_us_per "${CL_OWNER_TICKS[$key]}" "$a")" "$(cpu_us_per $((CL_NODE_TICKS[$key] - CL_OWNER_TICKS[$key])) "$a")" \
    "$(cpu_us_per "${CL_REDIS_TICKS[$key]}" "$a")" "$(cpu_us_per $((CL_NODE_TICKS[$key] + CL_REDIS_TICKS[$key])) "$a")"
}

# cl_derived: arithmetic from the per-action rows (labelled as such): Redis CPU per commit, and what forwarding adds.
cl_derived() {
  local key n f base
  echo
  for key in http-1-c1 http-1; do
    [[ -n ${CL_CMD[$key/_reads]:-} ]] || continue
    echo "- Arithmetic, ${CL_LABEL[$key]}: redis-server CPU per commit = $(cpu_us_per "${CL_REDIS_TICKS[$key]}" "${CL_ACTIONS[$key]}") µs per action ×" \
      "$(cl_commits_per "$key") actions per commit = $(awk -v t="${CL_REDIS_TICKS[$key]}" -v c="$(cl_commits "$key")" \
      'BEGIN {if (c > 0) printf "%.0f", t * 10000 / c; else printf "n/a"}') µs."
  done
  if [[ -n ${CL_CMD[http-2-owner/_reads]:-} && -n ${CL_CMD[http-2-follower/_reads]:-} ]]; then
    echo "- Measured, 2 nodes: following (the follower's CPU while all the load is on the owner) costs" \
      "$(cpu_us_per $((CL_NODE_TICKS[http-2-owner] - CL_OWNER_TICKS[http-2-owner])) "${CL_ACTIONS[http-2-owner]}") µs per action;" \
      "with every action forwarded, the owner spends $(cpu_us_per "${CL_OWNER_TICKS[http-2-follower]}" "${CL_ACTIONS[http-2-follower]}") µs" \
      "and the follower $(cpu_us_per $((CL_NODE_TICKS[http-2-follower] - CL_OWNER_TICKS[http-2-follower])) "${CL_ACTIONS[http-2-follower]}") µs" \
      "per action, against $(cpu_us_per "${CL_OWNER_TICKS[http-2-owner]}" "${CL_ACTIONS[http-2-owner]}") µs on the owner when it gets the requests itself."
  fi
  base=http-1
  for n in "${CLUSTER_NODES[@]}"; do
    key=http-$n
    ((n > 1)) && [[ -n ${CL_CMD[$key/_reads]:-} && -n ${CL_CMD[$base/_reads]:-} ]] || continue
    f=$(awk -v p="$(cl_node_publishes "$key")" -v a="${CL_ACTIONS[$key]}" 'BEGIN {printf "%.3f", p / 2 / a}')
    echo "- Arithmetic, $n nodes: forwarded fraction = PUBLISH by nodes ÷ 2 = $f of the actions; per forwarded action," \
      "nodes CPU (µs per action here − with 1 node) ÷ $f = $(awk -v a="${CL_NODE_TICKS[$key]}" -v x="${CL_ACTIONS[$key]}" \
      -v b="${CL_NODE_TICKS[$base]}" -v y="${CL_ACTIONS[$base]}" -v f="$f" 'BEGIN {printf "%.1f", (a * 10000 / x - b * 10000 / y) / f}') µs," \
      "redis-server CPU the same way = $(awk -v a="${CL_REDIS_TICKS[$key]}" -v x="${CL_ACTIONS[$key]}" \
      -v b="${CL_REDIS_TICKS[$base]}" -v y="${CL_ACTIONS[$base]}" -v f="$f" 'BEGIN {printf "%.1f", (a * 10000 / x - b * 10000 / y) / f}') µs" \
      "(batches differ: $(cl_commits_per "$key") against $(cl_commits_per "$base") actions per commit)."
  done
}

# The design's limits: Redis memory per idle store, the idle lease renewals, connections per node.
cl_limits() {
  local dir k m0 m1 m2 m3 clients keys summed t0 t1 r0 r1 f0 f1 name keyname
  cl_start_redis
  dir=$(mktemp -d "$WORK/cluster-stores.XXXXXX")
  python3 -c 'import json, sys
n = int(sys.argv[1])
c = {"listen": {"host": "127.0.0.1", "port": 0}, "limits": {"maxConnections": 60000, "maxStores": 200000},
     "storage": {"redis": sys.argv[2]}, "stores": [{"name": "s%d" % i, "reducer": "Counter"} for i in range(n)]}
json.dump(c, open(sys.argv[3], "w"), indent=1)' "$CLUSTER_STORES" "redis://127.0.0.1:$CL_REDIS_PORT" "$dir/statehouse.json"
  cl_used_memory() { timeout 5 redis-cli -p "$CL_REDIS_PORT" INFO memory | tr -d '\r' | sed -n 's/^used_memory:\([0-9]*\)/\1/p'; }
  m0=$(cl_used_memory)
  CL_NODE_PIDS=(); CL_NODE_PORTS=()
  cl_start_node 1 "$dir/statehouse.json"
  m1=$(cl_used_memory)
  # one increment to every store, over one keep-alive connection: each store's first action takes its lease
  timeout 120 taskset -c 1 python3 -c 'import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=30)
for i in range(int(sys.argv[2])):
    c.request("POST", "/stores/s%d/actions" % i, body=b"{\"type\":\"increment\"}", headers={"Content-Type": "application/json"})
    r = c.getresponse(); r.read()
    if r.status != 200: sys.exit("s%d: HTTP %d" % (i, r.status))' "${CL_NODE_PORTS[0]}" "$CLUSTER_STORES" || log "cluster: the stores' first actions failed"
  m2=$(cl_used_memory)
  # idle: the lease renewals of CLUSTER_STORES held leases (leaseMs 2000: one FCALL per lease every 500 ms)
  f0=$(timeout 5 redis-cli -p "$CL_REDIS_PORT" INFO commandstats | tr -d '\r' | sed -n 's/^cmdstat_fcall:calls=\([0-9]*\).*/\1/p')
  r0=$(cl_redis_cpu_s); t0=$(server_cpu_ticks "${CL_NODE_PIDS[0]}")
  sleep 10
  r1=$(cl_redis_cpu_s); t1=$(server_cpu_ticks "${CL_NODE_PIDS[0]}")
  f1=$(timeout 5 redis-cli -p "$CL_REDIS_PORT" INFO commandstats | tr -d '\r' | sed -n 's/^cmdstat_fcall:calls=\([0-9]*\).*/\1/p')
  clients=$(timeout 5 redis-cli -p "$CL_REDIS_PORT" INFO clients | tr -d '\r' | sed -n 's/^connected_clients:\([0-9]*\)/\1/p')
  local usage=()
  for keyname in meta lease fence log; do
    usage+=("$(timeout 5 redis-cli -p "$CL_REDIS_PORT" MEMORY USAGE "{s:s0}:$keyname" SAMPLES 0)")
  done
  # the node drains (releases its leases) and disconnects: what stays is the stores' data
  stop_server "${CL_NODE_PIDS[0]}"
  m3=$(cl_used_memory)
  keys=$(timeout 5 redis-cli -p "$CL_REDIS_PORT" DBSIZE)
  summed=$(timeout 30 redis-cli -p "$CL_REDIS_PORT" --scan | sed 's/^/MEMORY USAGE /; s/$/ SAMPLES 0/' |
    timeout 30 redis-cli -p "$CL_REDIS_PORT" | awk '{s += $1} END {print s + 0}')
  echo
  echo "#### cluster: Redis memory and idle cost per store ($CLUSTER_STORES Counter stores on one node)"
  echo
  echo "| measured | value |"
  echo "|---|---:|"
  echo "| used_memory, Redis alone (function library loaded by no one yet) | $m0 B |"
  echo "| used_memory after the node started (every store's meta made, its changes channel subscribed) | $m1 B |"
  echo "| used_memory after one action to every store (+ lease, fence, a 1-entry log) | $m2 B |"
  echo "| used_memory after the node stopped (leases released, its connections and subscriptions gone) | $m3 B |"
  echo "| per store after start ((after start − alone) ÷ $CLUSTER_STORES) | $(awk -v a="$m1" -v b="$m0" -v n="$CLUSTER_STORES" 'BEGIN {printf "%.0f B", (a - b) / n}') |"
  echo "| per store after one action ((after actions − alone) ÷ $CLUSTER_STORES) | $(awk -v a="$m2" -v b="$m0" -v n="$CLUSTER_STORES" 'BEGIN {printf "%.0f B", (a - b) / n}') |"
  echo "| per store, data only ((after the node stopped − alone) ÷ $CLUSTER_STORES) | $(awk -v a="$m3" -v b="$m0" -v n="$CLUSTER_STORES" 'BEGIN {printf "%.0f B", (a - b) / n}') |"
  echo "| per store, the node's subscription and lease ((after actions − after stopped) ÷ $CLUSTER_STORES) | $(awk -v a="$m2" -v b="$m3" -v n="$CLUSTER_STORES" 'BEGIN {printf "%.0f B", (a - b) / n}') |"
  echo "| keys after the node stopped (DBSIZE); MEMORY USAGE summed over them ÷ $CLUSTER_STORES | $keys; $(awk -v a="$summed" -v n="$CLUSTER_STORES" 'BEGIN {printf "%.0f B", a / n}') |"
  local i=0
  for keyname in meta lease fence log; do echo "| MEMORY USAGE {s:s0}:$keyname (one action) | ${usage[$i]} B |"; i=$((i + 1)); done
  echo "| {s:counter}:log of the busy store (XLEN, MEMORY USAGE; retainActions 10000, snapshot every 1000) | ${CL_LOG:-n/a} |"
  echo "| idle: lease renewals (FCALL/s over 10 s, $CLUSTER_STORES leases held, leaseMs 2000) | $(awk -v a="$f0" -v b="$f1" 'BEGIN {printf "%.0f", (b - a) / 10}') |"
  echo "| idle: redis-server CPU for them (cores; µs per renewal; INFO cpu) | $(awk -v a="$r0" -v b="$r1" -v n=$((f1 - f0)) 'BEGIN {printf "%.3f; %.1f", (b - a) / 10, (n > 0 ? (b - a) * 1e6 / n : 0)}') |"
  echo "| idle: the node's CPU (cores) | $(cpu_cores $((t1 - t0)) 10) |"
  echo "| Redis connections of the node (connected_clients − this script's; its messenger connects at its first forward or answer) | $((clients - 1)) |"
  echo "| Redis connections after the http and fanout runs (connected_clients − this script's) | ${CL_CLIENTS% } |"
  CL_NODE_PIDS=(); CL_NODE_PORTS=()
  cl_down
  rm -rf "$dir"
}

cluster_scenario() {
  local n other mode dir key
  dir=$(mktemp -d "$WORK/cluster-single.XXXXXX")
  log "cluster: single server, in memory"
  other=$(cl_quiet)
  durable_config "$dir" ""
  cl_single "$dir/statehouse.json"
  cl_http_row http-memory "single server, in memory" 64 "$other"
  for mode in "${CLUSTER_FANOUT_MODES[@]}"; do
    cl_fanout_row "fanout-memory-$(cl_mode_key "$mode")" "single server, in memory" "$mode" "$other"
  done
  cl_single_down
  log "cluster: single server, SQLite sync commit"
  other=$(cl_quiet)
  rm -rf "$dir"; mkdir -p "$dir"
  durable_config "$dir" "{\"path\": \"$dir/statehouse.sqlite\", \"sync\": \"commit\"}"
  cl_single "$dir/statehouse.json"
  cl_http_row http-sqlite "single server, SQLite sync commit" 64 "$other"
  cl_single_down
  rm -rf "$dir"
  for n in "${CLUSTER_NODES[@]}"; do
    log "cluster: $n node(s)"
    other=$(cl_quiet)
    cl_up "$n"
    if ((n == 1)); then cl_http_row http-1-c1 "1 node" 1 "$other"; fi
    cl_http_row "http-$n" "$n node$( ((n == 1)) || echo s)" 64 "$other"
    if ((n == 2)); then
      cl_http_row http-2-owner "2 nodes, all load on the owner" 64 "$other" "${CL_NODE_PORTS[0]}"
      cl_http_row http-2-follower "2 nodes, all load on the follower" 64 "$other" "${CL_NODE_PORTS[1]}"
    fi
    for mode in "${CLUSTER_FANOUT_MODES[@]}"; do
      cl_fanout_row "fanout-$n-$(cl_mode_key "$mode")" "$n node$( ((n == 1)) || echo s)" "$mode" "$other"
    done
    CL_CLIENTS+="$n node$( ((n == 1)) || echo s): $(($(timeout 5 redis-cli -p "$CL_REDIS_PORT" INFO clients | tr -d '\r' |
      sed -n 's/^connected_clients:\([0-9]*\)/\1/p') - 1)); "
    CL_LOG="$(timeout 5 redis-cli -p "$CL_REDIS_PORT" XLEN '{s:counter}:log') entries, $(timeout 5 redis-cli -p \
      "$CL_REDIS_PORT" MEMORY USAGE '{s:counter}:log' SAMPLES 0) B (after the $n-node runs)"
    cl_down
  done
  echo
  echo "### cluster http-actions: POST /stores/counter/actions {\"type\":\"increment\"}, wrk -tN -cC -d${CLUSTER_SECONDS}s keep-alive, C/N connections on each of N nodes; Redis appendfsync always"
  echo
  echo "| setup | connections | req/s | p50 ms | p99 ms | server-side CPU (cores: nodes + Redis) | errors + non-2xx | this ÷ in memory | other load |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s' "$CL_HTTP_ROWS"
  echo
  echo "### cluster fanout: S subscribers of ticker spread over the nodes (subscriber i on node i mod N), the publisher on the owner, ${CLUSTER_SECONDS} s per run"
  echo
  echo "| setup | S | mode | deliveries/s | p50 ms | p99 ms | max ms | missing / conflated | server-side CPU µs/delivery | other load |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s' "$CL_FANOUT_ROWS"
  echo
  echo "### cluster: per action (all $RUNS runs of a row together; actions = the store's version delta on the owner)"
  echo
  echo "| setup | actions | actions per commit | FCALL | PUBLISH by nodes | XRANGE | other node commands | commands inside functions | Redis socket reads | Redis µs inside FCALL (commandstats) | owner node CPU µs | other nodes CPU µs | redis-server CPU µs | server-side CPU µs |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for key in "${CL_KEYS[@]}"; do cl_action_row "$key"; done
  echo
  echo "Commands and reads are per action. Commits = FCALLs − lease renewals (PEXPIRE) − lease takes (INCR). PUBLISH by"
  echo "nodes = all PUBLISH − the commits' own (one each); a forwarded action costs two (to the owner's inbox, the answer"
  echo "back), so forwarded actions ≈ half of it. Commands inside functions: GET, HGET, XADD, HSET, ZRANGEBYSCORE,"
  echo "PUBLISH, … that Redis counts for each FCALL. \"Redis µs inside FCALL\" is commandstats' usec per call: wall time,"
  echo "so it includes redis-server's preemption by the nodes on the same CPU. CPU: utime + stime of the processes"
  echo "(/proc/PID/stat), whole runs; the owner is node n1 (the single server in its rows)."
  cl_derived
  cl_thread_rows
  log "cluster: the design's limits ($CLUSTER_STORES stores)"
  cl_quiet >/dev/null
  cl_limits
}
