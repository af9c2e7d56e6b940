/// Receives the records a ``Logger`` writes (those at or above its level), one call per record.
///
/// A handler is shared by every thread that logs: `log(_:)` may be called concurrently and must not block for long
/// (it runs on event-loop threads). Statehouse ships ``StandardErrorLogHandler`` (the default) and
/// ``InMemoryLogHandler`` (tests).
public protocol LogHandler: Sendable {
    /// Writes or keeps one record.
    func log(_ record: LogRecord)
}

/// One log record: its level, its message (one line of text) and its metadata (the logger's, then the call's).
///
/// ## Thread safety
/// Sendable (an immutable value).
public struct LogRecord: Sendable, Equatable, CustomStringConvertible {
    public let level: Logger.Level
    public let message: String
    public let metadata: Logger.Metadata

    public init(level: Logger.Level, message: String, metadata: Logger.Metadata = [:]) {
        self.level = level
        self.message = message
        self.metadata = metadata
    }

    /// `level message key=value …`: a standard-error line without its time stamp (see ``StandardErrorLogHandler``).
    public var description: String {
        metadata.isEmpty ? "\(level) \(message)" : "\(level) \(message) \(metadata)"
    }
}
