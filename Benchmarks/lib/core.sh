# Benchmarks/lib/core.sh: scenario core (sourced by Benchmarks/run): the statehouse-bench executable
# (Benchmarks/Core, release build) pinned to CPU 0. No server, no network: reducer throughput through one
# Store<Counter> with 0, 1 and 1,000 observers, and JSON encode cost per state.
# Sizes: CORE_ACTIONS (default 1,000,000), CORE_ENCODES (default 200,000), CORE_RUNS (default RUNS).

core_scenario() {
  local other
  other=$(wait_for_quiet)
  echo
  echo "(core: pinned with taskset -c 0, the enqueuing task and the store's drain share CPU 0; other load before: $other cores)"
  CORE_RUNS=${CORE_RUNS:-$RUNS} timeout 600 taskset -c 0 "$ROOT/.build/release/statehouse-bench"
}
