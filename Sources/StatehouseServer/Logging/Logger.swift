import Synchronization

/// Where the server's log lines go: a level threshold, a ``LogHandler`` that writes the records, and metadata added
/// to every record (e.g. `store=counter`). A value: pass it down, derive one with more metadata with ``with(_:_:)``.
///
/// ```swift
/// let logger = Logger(level: .debug, handler: StandardErrorLogHandler())
/// let storeLogger = logger.with("store", "counter")
/// storeLogger.warning("an event could not be sent")   // … warning an event could not be sent store=counter
/// logger.debug("GET /stores/counter → 200", metadata: ["conn": "7"])
/// ```
///
/// Messages and per-call metadata are autoclosures: below the level nothing is built (no string, no allocation).
///
/// The level is shared by a logger and every copy of it (``with(_:_:)`` included): ``changeLevel(to:)`` changes it
/// for all of them at once (SIGHUP applies `log.level` so); setting ``level`` gives this copy a level of its own.
///
/// ## Thread safety
/// Sendable (a value holding a Sendable handler and an atomic level): any thread may log, and one logger may be
/// shared by all.
public struct Logger: Sendable {
    /// Severity, lowest first. A logger writes the records at its ``Logger/level`` and above.
    public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        case debug, info, warning, error

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }

        /// `debug`, `info`, `warning` or `error`: the word in each line.
        public var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }

        /// A level from its name, any case: `debug`, `info`, `warning` (or `warn`), `error`; nil for anything else.
        public init?(name: String) {
            switch name.lowercased() {
            case "debug": self = .debug
            case "info": self = .info
            case "warning", "warn": self = .warning
            case "error": self = .error
            default: return nil
            }
        }
    }

    /// Records below this level are dropped before their message is built. Setting it detaches this copy from the
    /// level its originals share (see ``changeLevel(to:)``).
    public var level: Level {
        @inlinable get { threshold.level }
        set { threshold = Threshold(newValue) }
    }
    /// The level, shared by the copies of this logger.
    @usableFromInline var threshold: Threshold
    /// Added to every record this logger writes, before the record's own metadata.
    public var metadata: Metadata
    /// Writes the records.
    public let handler: any LogHandler

    /// - Parameters:
    ///   - level: the threshold (default `.info`).
    ///   - metadata: added to every record (default none).
    ///   - handler: where records go (default ``StandardErrorLogHandler``).
    public init(level: Level = .info, metadata: Metadata = [:], handler: any LogHandler = StandardErrorLogHandler()) {
        threshold = Threshold(level)
        self.metadata = metadata
        self.handler = handler
    }

    /// This logger with `key` set to `value` in its metadata (replacing an earlier value of `key` in place).
    public func with(_ key: String, _ value: String) -> Logger {
        var copy = self
        copy.metadata[key] = value
        return copy
    }

    /// This logger with `more` merged into its metadata (``Metadata/merge(_:)``).
    public func with(_ more: Metadata) -> Logger {
        var copy = self
        copy.metadata.merge(more)
        return copy
    }

    /// Sets the level of this logger and of every logger that shares it (every copy of it, and every copy of the
    /// logger it was copied from, unless its ``level`` was set since), at once, for all threads.
    public func changeLevel(to level: Level) { threshold.level = level }

    /// Whether a record at `level` would be written.
    @inlinable public func logs(_ level: Level) -> Bool { level >= self.level }

    /// Hands one record to the handler when `level` is at or above the threshold: `message()`, and this logger's
    /// metadata merged with `metadata()` (its values win). Neither closure runs below the threshold.
    @inlinable
    public func log(_ level: Level, _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        guard level >= self.level else { return }
        write(level, message(), metadata())
    }

    @inlinable
    public func debug(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(.debug, message(), metadata: metadata())
    }

    @inlinable
    public func info(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(.info, message(), metadata: metadata())
    }

    @inlinable
    public func warning(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(.warning, message(), metadata: metadata())
    }

    @inlinable
    public func error(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(.error, message(), metadata: metadata())
    }

    @usableFromInline
    func write(_ level: Level, _ message: String, _ extra: Metadata) {
        var all = metadata
        if !extra.isEmpty { all.merge(extra) }
        handler.log(LogRecord(level: level, message: message, metadata: all))
    }
}

extension Logger {
    /// A level that several copies of a logger read (one relaxed atomic load per call that may log).
    ///
    /// ## Thread safety
    /// Sendable: the level is an `Atomic`.
    @usableFromInline final class Threshold: Sendable {
        private let raw: Atomic<Int>

        init(_ level: Level) { raw = Atomic(level.rawValue) }

        @usableFromInline var level: Level {
            get { Level(rawValue: raw.load(ordering: .relaxed)) ?? .info }
            set { raw.store(newValue.rawValue, ordering: .relaxed) }
        }
    }
}
