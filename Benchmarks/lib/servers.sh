# Benchmarks/lib/servers.sh: start and stop the servers under test (sourced by Benchmarks/run).
# Every server runs pinned to CPU 0 on 127.0.0.1; its PID is remembered so the EXIT trap stops exactly the
# processes this script started (by PID, never by name). Overrides (used by the scaling scenario):
# SERVER_CPUS (taskset CPU list, default 0), SERVER_NICE (statehouse's niceness, default 0), STATEHOUSE_CONFIG (default Benchmarks/statehouse-bench.json),
# STATEHOUSE_BIN (default .build/release/statehouse; big-state and fairness run an older build through it), and for
# BEFORE (a statehouse binary of an earlier revision: http and fanout then add its rows as "statehouse-before",
# right after statehouse, for a before/after in one run), and for
# redis (the durable scenario) REDIS_DIR (its AOF directory, default $WORK) and REDIS_FSYNC (appendfsync, default always).

STARTED_PIDS=()
SERVER_PID=""
SERVER_PORT=""

free_port() { # a port nobody listens on right now (the kernel's pick for port 0)
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

port_answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# start_server NAME: sets SERVER_PID and SERVER_PORT; NAME is statehouse, statehouse-before, uws-native, nginx, socketify, asyncio,
# websockets, picows or redis. Waits (at most 10 s) until the port accepts connections.
start_server() {
  local name=$1 log="$WORK/$1.log" py="$BENCH/.venv/bin/python"
  SERVER_PORT=$(free_port)
  if port_answers "$SERVER_PORT"; then echo "port $SERVER_PORT is busy" >&2; return 1; fi
  case $name in
    statehouse | statehouse-before)
      local bin=${STATEHOUSE_BIN:-$ROOT/.build/release/statehouse}
      [[ $name == statehouse-before ]] && bin=$BEFORE
      nice -n "${SERVER_NICE:-0}" taskset -c "${SERVER_CPUS:-0}" "$bin" serve \
        --config "${STATEHOUSE_CONFIG:-$BENCH/statehouse-bench.json}" \
        --port "$SERVER_PORT" >"$log" 2>&1 &
      ;;
    uws-native)
      taskset -c 0 "$BENCH/.build/uws_native_peer" "$SERVER_PORT" >"$log" 2>&1 &
      ;;
    nginx)
      sed -e "s|@PORT@|$SERVER_PORT|" -e "s|@DIR@|$WORK|" "$BENCH/peers/nginx.conf.in" >"$WORK/nginx.conf"
      taskset -c 0 nginx -c "$WORK/nginx.conf" -p "$WORK" >"$log" 2>&1 &
      ;;
    redis)
      taskset -c 0 redis-server --port "$SERVER_PORT" --bind 127.0.0.1 --protected-mode yes --daemonize no \
        --dir "${REDIS_DIR:-$WORK}" --appendonly yes --appendfsync "${REDIS_FSYNC:-always}" --save '' \
        --logfile '' >"$log" 2>&1 &
      ;;
    socketify | asyncio | websockets | picows)
      local file=${name}_peer.py
      [[ $name == asyncio ]] && file=asyncio_http_peer.py
      PYTHONPATH="$BENCH/peers" taskset -c 0 "$py" "$BENCH/peers/$file" "$SERVER_PORT" >"$log" 2>&1 &
      ;;
    *) echo "unknown server $name" >&2; return 1 ;;
  esac
  SERVER_PID=$!
  STARTED_PIDS+=("$SERVER_PID")
  local deadline=$((SECONDS + 10))
  until port_answers "$SERVER_PORT"; do
    if ((SECONDS > deadline)) || ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "$name did not start; its log:" >&2; cat "$log" >&2; return 1
    fi
    sleep 0.05
  done
}

# stop_server PID: SIGTERM, then SIGKILL after 5 s.
stop_server() {
  local pid=$1 i
  kill -TERM "$pid" 2>/dev/null || return 0
  for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

stop_all_servers() {
  local pid
  for pid in "${STARTED_PIDS[@]}"; do stop_server "$pid"; done
}

# server_cpu_ticks PID: user + system CPU time so far of the process and its direct children (nginx's worker), in
# clock ticks (/proc/PID/stat fields 14 and 15).
server_cpu_ticks() {
  local total=0 p
  for p in "$1" $(ps -o pid= --ppid "$1"); do
    total=$((total + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
  done
  echo "$total"
}
