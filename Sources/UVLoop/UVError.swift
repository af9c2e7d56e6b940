internal import CLibUV

/// A libuv call that failed: the operation's name and libuv's negative error code (`UV_E*`).
public struct UVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The libuv function that failed, e.g. `"uv_tcp_bind"`.
    public var operation: String
    /// libuv's error code (negative errno on Unix; `UV_EOF` is -4095).
    public var code: Int32

    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// libuv's name for the code, e.g. `"EADDRINUSE"`.
    public var name: String { String(cString: uv_err_name(code)) }

    /// True for end of stream (the peer closed its side).
    public var isEndOfFile: Bool { code == Int32(UV_EOF.rawValue) }

    public var description: String { "\(operation): \(String(cString: uv_strerror(code))) (\(name))" }

    /// Throws a `UVError` when a libuv return code is negative.
    /// - Throws: `UVError` carrying `operation` and the code.
    @inlinable
    static func check(_ result: Int32, _ operation: String) throws(UVError) {
        if result < 0 { throw UVError(operation: operation, code: result) }
    }
}
