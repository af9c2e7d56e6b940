# Benchmarks/lib/stats.sh: medians, ratios and machine load (sourced by Benchmarks/run).

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "n/a"}'; }
maximum() { sort -g | tail -1; }

# ratio A B: A/B with two decimals ("n/a" when either is missing or B is 0).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a+0 > 0 && b+0 > 0) printf "%.2f", a/b; else printf "n/a"}'; }

# cpu_cores TICKS SECONDS: cores used by TICKS clock ticks (1/100 s) of CPU time over SECONDS.
cpu_cores() { awk -v t="$1" -v s="$2" 'BEGIN {if (s > 0) printf "%.2f", t / 100 / s; else printf "n/a"}'; }
# cpu_us_per TICKS COUNT: µs of CPU time per item of COUNT.
cpu_us_per() { awk -v t="$1" -v n="$2" 'BEGIN {if (n > 0) printf "%.1f", t * 10000 / n; else printf "n/a"}'; }

# field KEY LINE: the value of KEY=value in a wsfanout RESULT line.
field() { sed -n "s/.*[ ]$1=\([^ ]*\).*/\1/p" <<<"$2"; }

# Machine load: the 1-minute load average, and the busiest processes (so BENCHMARKS.md can say how busy it was).
load_average() { cut -d' ' -f1 /proc/loadavg; }

# busy_cores: CPU cores in use over the next second, whole machine (/proc/stat; call it while nothing of ours runs).
busy_cores() {
  local a b
  a=$(awk '/^cpu /{print $2+$3+$4+$7+$8, $5+$6}' /proc/stat); sleep 1
  b=$(awk '/^cpu /{print $2+$3+$4+$7+$8, $5+$6}' /proc/stat)
  awk -v a="$a" -v b="$b" -v n="$(nproc)" 'BEGIN {split(a, x, " "); split(b, y, " "); busy = y[1]-x[1]; idle = y[2]-x[2];
    printf "%.2f", n * busy / (busy + idle)}'
}

# wait_for_quiet: waits (at most QUIET_MAX_SECONDS, default 60 s) until other work uses under 0.25 cores; prints the
# busy cores it measured last.
wait_for_quiet() {
  local deadline=$((SECONDS + ${QUIET_MAX_SECONDS:-60})) busy
  while busy=$(busy_cores); awk -v b="$busy" 'BEGIN {exit !(b >= 0.25)}'; do
    ((SECONDS > deadline)) && break
  done
  echo "$busy"
}
