/// Status lines (`HTTP/1.1 200 OK\r\n`, RFC 9112 §4) as bytes, built once for every code from 100 to 599.
enum StatusLines {
    /// The lines for codes 100…599, by `code - 100`.
    private static let table: [[UInt8]] = (100..<600).map(build)

    /// The status line for `status`, including its CRLF, with the reason phrase of ``httpReasonPhrase(_:)``.
    static func line(for status: Int) -> [UInt8] {
        let index = status &- 100
        if index >= 0, index < table.count { return table[index] }
        return build(status)
    }

    /// Builds the line for `status`.
    private static func build(_ status: Int) -> [UInt8] {
        Array("HTTP/1.1 \(status) \(httpReasonPhrase(status))\r\n".utf8)
    }
}
