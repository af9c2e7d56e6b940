import Foundation
import Locking

/// Writes the Prometheus text exposition format, version 0.0.4 (prometheus.io, *Exposition formats*): per metric
/// family a `# HELP` line, a `# TYPE` line, then one sample line per label set, `name{label="value",…} number`.
///
/// ```swift
/// var text = MetricsExposition()
/// text.family("statehouse_store_version", .gauge, help: "…", [(["store": "counter"], 3)])
/// text.bytes   // "# HELP statehouse_store_version …\n# TYPE … gauge\nstatehouse_store_version{store=\"counter\"} 3\n"
/// ```
struct MetricsExposition {
    /// The metric types used here (`# TYPE` line).
    enum Kind: String {
        /// A value that goes up and down.
        case gauge
        /// A total that only grows (resets only when the process restarts); its name ends in `_total`.
        case counter
        /// Observations counted in buckets: `<name>_bucket{le="…"}` (cumulative), `<name>_sum`, `<name>_count`.
        case histogram
    }

    /// One sample: its labels in the order written, and its value.
    typealias Sample = (labels: KeyValuePairs<String, String>, value: Double)

    /// One histogram of a family: its labels and the durations counted (written in seconds).
    typealias HistogramSample = (labels: KeyValuePairs<String, String>, durations: DurationHistogram.Snapshot)

    private(set) var text = ""

    /// The exposition as UTF-8 bytes (the response body).
    var bytes: [UInt8] { Array(text.utf8) }

    /// Adds one family: `name` and every label name must match `[a-zA-Z_][a-zA-Z0-9_]*` (the caller's constants).
    mutating func family(_ name: String, _ kind: Kind, help: String, _ samples: [Sample]) {
        text += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
        for sample in samples { line(name, sample.labels.map { ($0.key, $0.value) }, sample.value) }
    }

    /// Adds one histogram family (name without the `_bucket`/`_sum`/`_count` suffixes), durations in seconds.
    mutating func histogram(_ name: String, help: String, _ samples: [HistogramSample]) {
        text += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) histogram\n"
        for sample in samples {
            let labels = sample.labels.map { ($0.key, $0.value) }
            for (bound, count) in sample.durations.cumulativeCounts {
                line(name + "_bucket", labels + [("le", Self.number(Double(bound) / 1e9))], Double(count))
            }
            line(name + "_bucket", labels + [("le", "+Inf")], Double(sample.durations.count))
            line(name + "_sum", labels, Double(sample.durations.sumNs) / 1e9)
            line(name + "_count", labels, Double(sample.durations.count))
        }
    }

    private mutating func line(_ name: String, _ labels: [(String, String)], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{"
            text += labels.map { "\($0.0)=\"\(Self.escapedLabelValue($0.1))\"" }.joined(separator: ",")
            text += "}"
        }
        text += " \(Self.number(value))\n"
    }

    /// A sample value or bound as the format reads it (Go's `ParseFloat`): whole numbers without a fraction.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A label value as the format wants it between double quotes: `\` as `\\`, `"` as `\"`, line feed as `\n`.
    static func escapedLabelValue(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// Help text: `\` as `\\`, line feed as `\n` (quotes stay as they are).
    static func escapedHelp(_ help: String) -> String {
        help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
