extension TestHTTPResponse {
    /// Parses a response head: status line and field lines, ending with the blank line
    /// (RFC 9112 §4 and §5). Leaves `body` empty.
    ///
    /// - Throws: `TestClientError` for a malformed status line or field line.
    static func parseHead(_ head: [UInt8]) throws -> TestHTTPResponse {
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        while lines.last == "" { lines.removeLast() }
        guard let statusLine = lines.first else { throw TestClientError("empty response head") }
        var response = try parseStatusLine(statusLine)
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw TestClientError("malformed field line in response: \(line.debugDescription)")
            }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            response.fields.append((name: name, value: value))
        }
        return response
    }

    /// `HTTP/1.1 200 OK` → version, status, reason (RFC 9112 §4).
    private static func parseStatusLine(_ line: String) throws -> TestHTTPResponse {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].count == 3,
              let status = Int(parts[1]) else {
            throw TestClientError("malformed status line: \(line.debugDescription)")
        }
        let reason = parts.count == 3 ? String(parts[2]) : ""
        return TestHTTPResponse(version: String(parts[0]), status: status, reason: reason)
    }

    /// How the body of a response with this head is delimited (RFC 9112 §6.3).
    enum BodyFraming {
        case none
        case length(Int)
        case untilClose
    }

    /// The body framing for this head; `bodyless` is true for answers to HEAD requests.
    ///
    /// - Throws: `TestClientError` for an invalid `Content-Length` or a chunked response,
    ///   which this client does not decode (the server never sends one).
    func bodyFraming(bodyless: Bool) throws -> BodyFraming {
        if bodyless || (100..<200).contains(status) || status == 204 || status == 304 { return .none }
        if let coding = field("Transfer-Encoding") {
            throw TestClientError("response uses Transfer-Encoding: \(coding), which the test client does not decode")
        }
        let lengths = fieldValues("Content-Length")
        guard let first = lengths.first else { return .untilClose }
        guard let length = Int(first), length >= 0, lengths.allSatisfy({ $0 == first }) else {
            throw TestClientError("invalid Content-Length in response: \(lengths)")
        }
        return .length(length)
    }
}

extension BufferedReader {
    /// Reads one response: head, then the body as its framing says (see `bodyFraming`).
    ///
    /// - Throws: `TestClientError` on timeout, EOF before a full response, or a malformed head.
    func readResponse(deadline: ContinuousClock.Instant, bodyless: Bool) throws -> TestHTTPResponse {
        var response = try TestHTTPResponse.parseHead(try readHead(deadline: deadline))
        switch try response.bodyFraming(bodyless: bodyless) {
        case .none:
            break
        case .length(let count):
            response.body = try read(exactly: count, deadline: deadline, what: "response body")
        case .untilClose:
            response.body = try readToEOF(deadline: deadline)
        }
        return response
    }
}
