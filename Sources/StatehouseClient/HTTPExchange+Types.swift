/// The request, response and failures of one ``HTTPExchange``.
extension HTTPExchange {
    /// One HTTP/1.1 request (RFC 9112 §3).
    package struct Request: Sendable {
        /// The method token, e.g. `GET`, `POST` (RFC 9110 §9).
        package var method: String
        /// The request-target under the endpoint's base path, starting with `/`; may carry a query. Visible ASCII
        /// only: percent-encode anything else (``percentEncoded(_:)``).
        package var path: String
        /// Extra header fields, e.g. `Authorization: Bearer …`; not `Host`, `Content-Length` or `Connection`.
        package var fields: [(name: String, value: String)]
        /// The body, bytes; sent with `Content-Length` when not empty (or when the method is `POST` or `PUT`).
        package var body: [UInt8]

        /// Creates a request.
        package init(method: String, path: String, fields: [(name: String, value: String)] = [], body: [UInt8] = []) {
            self.method = method
            self.path = path
            self.fields = fields
            self.body = body
        }

        /// The request's bytes: request line, `Host`, the fields, `Content-Length`, `Connection: close`, body.
        /// - Throws: ``Failure/invalidRequest(_:)`` for a path that is not visible ASCII, or a field name that is not
        ///   a token or a value holding CR, LF or NUL (RFC 9110 §5.1, §5.5), which would split the request.
        func encoded(host: String, basePath: String) throws(Failure) -> [UInt8] {
            let target = basePath + path
            guard target.hasPrefix("/"), target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw .invalidRequest("the request path \"\(target)\" must start with / and hold visible ASCII only")
            }
            var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
            for field in fields {
                guard !field.name.isEmpty, field.name.utf8.allSatisfy(Self.isTokenByte) else {
                    throw .invalidRequest("the field name \"\(field.name)\" is not an HTTP token")
                }
                guard !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                    throw .invalidRequest("the value of the field \(field.name) may not hold a line break or NUL")
                }
                head += "\(field.name): \(field.value)\r\n"
            }
            if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
            head += "Connection: close\r\n\r\n"
            return Array(head.utf8) + body
        }

        /// tchar (RFC 9110 §5.6.2).
        private static func isTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
            }
        }
    }

    /// `text` percent-encoded for a path segment or query value (RFC 3986 §2.1): every byte but the unreserved
    /// characters `A–Z a–z 0–9 - . _ ~` and those in `keep` (e.g. `"/"` for a JSON Pointer in a query) as `%XX`.
    package static func percentEncoded(_ text: String, keeping keep: Set<UInt8> = []) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where keep.contains(byte):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }

    /// A complete response (any status; RFC 9110 §15).
    package struct Response: Sendable {
        /// The status code, e.g. 200, 404.
        package var status: Int
        /// The header fields in arrival order.
        package var fields: [(name: String, value: String)]
        /// The body (de-chunked), bytes.
        package var body: [UInt8]
    }

    /// Why an exchange produced no response: a sentence for people in each case.
    package enum Failure: Error, Sendable, CustomStringConvertible {
        /// The host did not resolve, or no address accepted the TCP connect (e.g. `ECONNREFUSED`).
        case cannotConnect(String)
        /// The request could not be written as HTTP/1.1 (a field value with a line break, a bad path).
        case invalidRequest(String)
        /// The exchange took longer than its `timeoutMs`.
        case timedOut(String)
        /// The answer is not a valid HTTP/1.1 response, exceeds a limit, or the connection ended before it was whole.
        case invalidResponse(String)

        package var description: String {
            switch self {
            case .cannotConnect(let text), .invalidRequest(let text), .timedOut(let text), .invalidResponse(let text): text
            }
        }
    }
}
