/// How ``StandardErrorLogHandler`` writes a record (`STATEHOUSE_LOG_FORMAT`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-12-01T04:00:00Z info message key=value …` (the default; see ``StandardErrorLogHandler``).
    case text
    /// One JSON object (RFC 8259) per line: `time` (RFC 3339, UTC, milliseconds), `level`, `message`, then the
    /// record's metadata as string members (`store`, `conn`, `request_id`, …), in the order they were set.
    case json

    /// A format from its name (`text` or `json`, any case); nil for anything else.
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }
}

/// A logging variable (`STATEHOUSE_LOG_FORMAT`) whose value cannot be used; `description` is one line saying which
/// values can.
public struct LogSettingError: Error, Sendable, CustomStringConvertible {
    public var description: String
}
