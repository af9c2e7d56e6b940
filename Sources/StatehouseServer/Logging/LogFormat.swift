import Foundation

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

    /// Writes `record` in this format, with its line feed, to the file descriptor `descriptor` (all of it: a short
    /// write is continued, `EINTR` retried; any other error drops the line, as a logger has nowhere to report it).
    func write(_ record: LogRecord, to descriptor: Int32) {
        var line: [UInt8]
        switch self {
        case .text: line = Array(StandardErrorLogHandler.format(record, at: Date()).utf8)
        case .json: line = record.jsonLine(at: Date())
        }
        line.append(UInt8(ascii: "\n"))
        line.withUnsafeBufferPointer { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}

/// A logging variable (`STATEHOUSE_LOG_FORMAT`) whose value cannot be used; `description` is one line saying which
/// values can.
public struct LogSettingError: Error, Sendable, CustomStringConvertible {
    public var description: String
}
