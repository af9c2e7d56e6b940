import Foundation
import Locking

/// The CPU time this process has used so far, all threads, user + system, µs (`getrusage(RUSAGE_SELF)`).
func processCPUMicroseconds() -> Double {
    var usage = rusage()
    _ = getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let user = Double(usage.ru_utime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec)
    let system = Double(usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_stime.tv_usec)
    return user + system
}

/// A monotonic clock readable on every thread, ns (``MonotonicClock``, the one the loops' turn budget uses).
var nowNs: UInt64 { MonotonicClock.nowNs() }

/// The `fraction` percentile (0…1) of `samples` (nearest rank on the sorted samples); 0 for none.
func percentile(_ samples: [UInt64], _ fraction: Double) -> UInt64 {
    guard !samples.isEmpty else { return 0 }
    let sorted = samples.sorted()
    let rank = Int((Double(sorted.count) * fraction).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// One measurement, printed as one `RESULT key=value …` line (the format Benchmarks/lib/*.sh read with `field`).
struct ResultLine {
    var fields: [(String, String)]

    init(_ fields: [(String, String)]) { self.fields = fields }

    var text: String { "RESULT " + fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ") }

    /// Send throughput: `count` actions acked in `elapsedNs`, using `cpuMicroseconds` of this process.
    static func send(name: String, client: String, window: Int, count: Int, elapsedNs: UInt64, cpuMicroseconds: Double)
        -> ResultLine
    {
        let seconds = Double(elapsedNs) / 1e9
        return ResultLine([
            ("name", name), ("client", client), ("window", "\(window)"), ("actions", "\(count)"),
            ("seconds", format(seconds, 3)), ("actions_per_s", format(Double(count) / seconds, 0)),
            ("cpu_us_per_action", format(cpuMicroseconds / Double(max(count, 1)), 2)),
        ])
    }

    /// Change → receipt latency over `samples` (ns each), using `cpuMicroseconds` of this process.
    static func latency(name: String, client: String, samples: [UInt64], cpuMicroseconds: Double) -> ResultLine {
        ResultLine([
            ("name", name), ("client", client), ("changes", "\(samples.count)"),
            ("p50_ms", format(Double(percentile(samples, 0.5)) / 1e6, 3)),
            ("p99_ms", format(Double(percentile(samples, 0.99)) / 1e6, 3)),
            ("max_ms", format(Double(samples.max() ?? 0) / 1e6, 3)),
            ("cpu_us_per_change", format(cpuMicroseconds / Double(max(samples.count, 1)), 2)),
        ])
    }

    static func failure(name: String, _ error: BenchError) -> ResultLine {
        ResultLine([("name", name), ("error", error.description.replacingOccurrences(of: " ", with: "_"))])
    }

    private static func format(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
