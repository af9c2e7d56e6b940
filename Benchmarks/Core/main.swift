// statehouse-bench: in-process benchmarks of StatehouseCore (Benchmarks/run core).
//
// Prints two Markdown tables on standard output:
//  1. reducer throughput: actions/s through one Store<Counter> with 0, 1 and 1,000 observers;
//  2. JSON encode cost: ns per state for a Counter state and a ~1 KiB TodoList state, per encoder.
// Every figure is the median of CORE_RUNS runs. Sizes come from the environment (see BenchSettings).
// A run whose counts do not add up (observer calls, final version) stops the program with exit code 1.

import Foundation

let settings = BenchSettings.fromEnvironment()
print(settings.conditionsLine)

print()
print("### core: reducer throughput (one Store<Counter>, action `increment`)")
print()
print(ThroughputRow.tableHeader)
for row in ThroughputRow.all(settings) {
    print(await row.measure(runs: settings.runs).markdown)
}
print()
print(ThroughputRow.footnote)

print()
print("### core: JSON encode cost per state")
print()
print(EncodeRow.tableHeader)
for row in EncodeRow.all(settings) {
    print(row.measure(runs: settings.runs).markdown)
}
print()
print(EncodeRow.footnote)
