import Foundation

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
    }

    /// One sample: its labels in the order written, and its value.
    typealias Sample = (labels: KeyValuePairs<String, String>, value: UInt64)

    private(set) var text = ""

    /// The exposition as UTF-8 bytes (the response body).
    var bytes: [UInt8] { Array(text.utf8) }

    /// Adds one family: `name` and every label name must match `[a-zA-Z_][a-zA-Z0-9_]*` (the caller's constants).
    mutating func family(_ name: String, _ kind: Kind, help: String, _ samples: [Sample]) {
        text += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
        for sample in samples {
            text += name
            if !sample.labels.isEmpty {
                text += "{"
                text += sample.labels.map { "\($0.key)=\"\(Self.escapedLabelValue($0.value))\"" }.joined(separator: ",")
                text += "}"
            }
            text += " \(sample.value)\n"
        }
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
