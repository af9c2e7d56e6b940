import Foundation

/// The exit statuses of the client commands (`stores`, `get`, `send`, `watch`), as `statehouse --help` lists them.
enum ClientExit: Int32 {
    /// Done: the answer was printed (`watch`: the store was deleted).
    case ok = 0
    /// The server refused: an error status, or a refused WebSocket handshake; its `message` is printed.
    case refused = 1
    /// Bad usage: an unknown option, a missing argument, a bad URL or JSON Pointer.
    case usage = 2
    /// No answer: the server cannot be reached (refused, unknown host, timeout), its answer is not HTTP, or
    /// (`watch`) the stream ended without the store being deleted.
    case unreachable = 3
}

/// Prints `statehouse: <message>` (one line) to standard error and exits with `status`.
func fail(_ message: String, _ status: ClientExit) -> Never {
    fail(message, code: status.rawValue)
}
