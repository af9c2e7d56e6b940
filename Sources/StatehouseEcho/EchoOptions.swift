/// Command-line options of `statehouse-echo`.
///
/// ```
/// statehouse-echo [--host H] [--port P] [--max-message-bytes N]
/// ```
struct EchoOptions {
    /// The address to listen on (an IPv4 or IPv6 literal); loopback by default.
    var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one (printed on start).
    var port = 0
    /// The largest message (all fragments together) echoed, in bytes; larger ones fail with close code 1009
    /// (RFC 6455 §7.4.1). The default, 16 MiB, covers Autobahn's largest case (9.1.6, 16 MiB of text).
    var maxMessageBytes = 16 << 20

    static let usage = """
        Usage: statehouse-echo [--host HOST] [--port PORT] [--max-message-bytes N]

        A WebSocket echo server on the Statehouse transport (UVLoop, HTTP1, WebSocket), for conformance runs.
        Any GET with a valid RFC 6455 handshake is upgraded; every text or binary message is echoed as one frame.
          --host HOST              listen address (default 127.0.0.1)
          --port PORT              listen port (default 0: a free port)
          --max-message-bytes N    largest message accepted, in bytes (default 16777216); larger ones close with 1009
        Once listening it prints: statehouse-echo listening on ws://HOST:PORT
        SIGINT or SIGTERM stops it.

        """

    /// Parses `arguments` (without the program name).
    /// - Throws: `EchoUsageError` for an unknown flag, a missing value or a value out of range.
    static func parse(_ arguments: [String]) throws(EchoUsageError) -> EchoOptions {
        var options = EchoOptions()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--help" || flag == "-h" { throw EchoUsageError(message: nil) }
            guard ["--host", "--port", "--max-message-bytes"].contains(flag) else {
                throw EchoUsageError(message: "unknown option \(flag)")
            }
            guard let value = rest.popFirst() else { throw EchoUsageError(message: "\(flag) needs a value") }
            switch flag {
            case "--host": options.host = value
            case "--port":
                guard let port = Int(value), (0...65535).contains(port) else {
                    throw EchoUsageError(message: "--port must be 0 to 65535")
                }
                options.port = port
            case "--max-message-bytes":
                guard let limit = Int(value), limit >= 0 else {
                    throw EchoUsageError(message: "--max-message-bytes must be a byte count ≥ 0")
                }
                options.maxMessageBytes = limit
            default: break
            }
        }
        return options
    }
}

/// Bad command-line usage; `message` is nil when help was asked for.
struct EchoUsageError: Error {
    var message: String?
}
