import Foundation

/// The sizes of one `statehouse-bench` run, read from the environment.
///
/// - `CORE_ACTIONS`: actions per throughput run with 0 and 1 observer (default 1,000,000); the 1,000-observer
///   row uses a hundredth of it and the awaited `send` row a tenth (each at least 1,000).
/// - `CORE_ENCODES`: encodes per run for the Counter state (default 200,000); the ~1 KiB state uses a tenth
///   (at least 100).
/// - `CORE_RUNS`: runs per figure, the median is printed (default 3).
struct BenchSettings {
    var actions: Int
    var encodes: Int
    var runs: Int

    static func fromEnvironment() -> BenchSettings {
        let environment = ProcessInfo.processInfo.environment
        func value(_ key: String, _ fallback: Int) -> Int {
            guard let text = environment[key], let number = Int(text), number > 0 else { return fallback }
            return number
        }
        return BenchSettings(
            actions: max(value("CORE_ACTIONS", 1_000_000), 1_000),
            encodes: max(value("CORE_ENCODES", 200_000), 100),
            runs: value("CORE_RUNS", 3)
        )
    }

    /// One line with the conditions: CPUs the process may run on, build, sizes.
    var conditionsLine: String {
        let cpus = Self.allowedCPUs() ?? "\(ProcessInfo.processInfo.activeProcessorCount) CPU(s)"
        #if DEBUG
        let build = "debug build (figures are not meaningful)"
        #else
        let build = "release build"
        #endif
        return "statehouse-bench: \(build), runs on CPU list \(cpus), medians of \(runs) runs; "
            + "CORE_ACTIONS=\(actions) CORE_ENCODES=\(encodes)."
    }
}

extension BenchSettings {
    /// The CPUs this process may run on, as Linux prints them (`Cpus_allowed_list` in /proc/self/status, e.g.
    /// `0` or `0-1`); nil where that file does not exist.
    static func allowedCPUs() -> String? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
        return line.map { $0.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces) }
    }
}

/// The median of `values` (the upper middle one for an even count); 0 for none.
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    return values.sorted()[values.count / 2]
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}

/// Formats `value` with thousands separators and no decimals, e.g. `1,234,567`.
func grouped(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var out = ""
    for (i, character) in digits.reversed().enumerated() {
        if i > 0 && i % 3 == 0 && character != "-" { out.append(",") }
        out.append(character)
    }
    return String(out.reversed())
}

/// Stops the benchmark: a run produced counts that do not add up, so its figure would be wrong.
func failCheck(_ message: String) -> Never {
    FileHandle.standardError.write(Data("statehouse-bench: check failed: \(message)\n".utf8))
    exit(1)
}
