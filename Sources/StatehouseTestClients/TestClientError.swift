import Glibc

/// The one error type thrown by every test client in this module.
///
/// The message names what was attempted and what went wrong (for example
/// `"receive: timed out after 5000 ms waiting for bytes"`), so a failing test
/// shows the cause without a debugger.
public struct TestClientError: Error, CustomStringConvertible, Sendable {
    /// Human-readable explanation of the failure.
    public var description: String
    /// `true` when the failure is a deadline or timeout passing with nothing (or too little) received.
    public var isTimeout: Bool
    /// The `errno` of the failed POSIX call, when the failure is one.
    var posixCode: Int32?

    /// Creates an error carrying `description` as its message.
    public init(_ description: String, isTimeout: Bool = false) {
        self.description = description
        self.isTimeout = isTimeout
    }
}

extension TestClientError {
    /// A timeout error with the given message.
    static func timeout(_ description: String) -> TestClientError {
        TestClientError(description, isTimeout: true)
    }

    /// An error for a failed POSIX call, with `errno` decoded to text.
    static func posix(_ call: String, errno code: Int32) -> TestClientError {
        var error = TestClientError("\(call) failed: \(String(cString: strerror(code))) (errno \(code))")
        error.posixCode = code
        return error
    }
}
