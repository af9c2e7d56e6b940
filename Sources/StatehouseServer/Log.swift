import Foundation

/// One-line log records to standard error: `2026-12-01T04:00:00Z warning message`.
///
/// The level comes from `STATEHOUSE_LOG` (`debug`, `info`, `warning`, `error`; default `info`).
///
/// ## Thread safety
/// Sendable; each record is one `write(2)`, so lines from different threads never interleave.
public struct Log: Sendable {
    /// Severity, lowest first.
    public enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// The process-wide logger.
    public static let shared: Log = {
        let setting = ProcessInfo.processInfo.environment["STATEHOUSE_LOG"]
        let log = Log(level: setting.flatMap(Level.init(name:)) ?? .info)
        if let setting, Level(name: setting) == nil {
            log.warning("STATEHOUSE_LOG=\(setting) is not a level; using info (levels: debug, info, warning, error)")
        }
        return log
    }()

    /// Records below this level are dropped.
    public let level: Level

    public func debug(_ message: @autoclosure () -> String) { write(.debug, message) }
    public func info(_ message: @autoclosure () -> String) { write(.info, message) }
    public func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    public func error(_ message: @autoclosure () -> String) { write(.error, message) }

    private func write(_ level: Level, _ message: () -> String) {
        guard level >= self.level else { return }
        let stamp = Date().formatted(.iso8601)
        let line = "\(stamp) \(level) \(message())\n"
        _ = line.withCString { Foundation.write(2, $0, strlen($0)) }
    }
}

extension Log.Level {
    init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "warning", "warn": self = .warning
        case "error": self = .error
        default: return nil
        }
    }
}
