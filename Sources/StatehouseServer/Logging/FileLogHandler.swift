import Foundation

/// Appends each record to a file, as one line in the ``LogFormat`` given (the lines of
/// ``StandardErrorLogHandler``). The tests give each server a file of its own this way (`.build/test-logs/`), so
/// `make test` prints no server log, and a failing test names the file to read.
///
/// ## Thread safety
/// Sendable: each record is one `write(2)` on a descriptor opened with `O_APPEND`, so lines from different threads
/// never interleave.
public final class FileLogHandler: LogHandler {
    /// The file written to.
    public let path: String
    public let format: LogFormat
    private let descriptor: Int32

    /// Opens (creating, or appending to) the file at `path`; its directory must exist.
    /// - Throws: ``LogSettingError`` naming the file and the system's reason when it cannot be opened.
    public init(path: String, format: LogFormat = .text) throws(LogSettingError) {
        self.path = path
        self.format = format
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw LogSettingError(description: "cannot open the log file \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    public func log(_ record: LogRecord) { format.write(record, to: descriptor) }
}
