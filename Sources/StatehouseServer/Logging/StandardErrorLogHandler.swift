import Foundation

/// Writes each record to standard error as one line, in the ``LogFormat`` given: `.json` writes
/// ``LogRecord``'s JSON object (see ``LogFormat/json``); `.text`, the default:
///
/// ```
/// 2026-12-01T04:00:00Z warning an event of type Ping is not an enum case; not sent store=counter
/// ```
///
/// that is: the UTC time to the second (ISO 8601), one space, the level (`debug`, `info`, `warning`, `error`), one
/// space, the message (control characters and line separators in it escaped, `\n`, `\r`, `\t`, else `\u{…}`, so a
/// record is always one line and never drives a terminal), then, when the record has
/// metadata, one space and its pairs as `key=value` separated by single spaces in the order set (values with spaces,
/// `"`, `=` or control characters quoted, see ``Logger/Metadata/description``); then a line feed.
///
/// ## Thread safety
/// Sendable (stateless): each record is written with one `write(2)` (repeated only for the rest of a short write), so
/// lines from different threads never interleave.
public struct StandardErrorLogHandler: LogHandler {
    /// How each record is written.
    public let format: LogFormat

    public init(format: LogFormat = .text) {
        self.format = format
    }

    public func log(_ record: LogRecord) { format.write(record, to: 2) }

    /// The line for `record` at `time`, without its line feed.
    static func format(_ record: LogRecord, at time: Date) -> String {
        var line = "\(time.formatted(.iso8601)) \(record.level) \(record.message.escapingLineBreaks)"
        if !record.metadata.isEmpty { line += " \(record.metadata)" }
        return line
    }
}
