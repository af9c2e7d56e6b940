/// The Swift side of each llhttp callback (called from `HTTPRequestParser+Callbacks.swift`).
extension ParserState {
    /// A new request starts: clear the previous one's state.
    mutating func messageBegan() -> CallbackVerdict {
        message.reset()
        isMidMessage = true
        areHeadersComplete = false
        return .proceed
    }

    /// A piece of the request line or a field; counts it against the head limit (431) and keeps it.
    mutating func headData(_ kind: HeadSpan, _ bytes: UnsafeBufferPointer<UInt8>) -> CallbackVerdict {
        message.headBytes += bytes.count
        guard message.headBytes <= limits.maxHeaderBytes else {
            pendingFailure = .headerTooLarge(limit: limits.maxHeaderBytes)
            return .fail
        }
        switch kind {
        case .method: break  // named from llhttp's method number at headers-complete
        case .target: message.target.append(bytes)
        case .version: message.version.append(bytes)
        case .fieldName: message.fieldName.append(bytes)
        case .fieldValue: message.fieldValue.append(bytes)
        }
        return .proceed
    }

    /// The version is known: only HTTP/1.x goes on (505 otherwise, RFC 9110 §15.6.6).
    mutating func versionComplete(major: Int) -> CallbackVerdict {
        guard major == 1 else {
            pendingFailure = .versionNotSupported(message.version.string())
            return .fail
        }
        return .proceed
    }

    /// A field line is complete.
    mutating func fieldComplete() -> CallbackVerdict {
        message.commitField()
        guard message.fieldCount <= limits.maxHeaderFields else {
            pendingFailure = .tooManyFields(limit: limits.maxHeaderFields)
            return .fail
        }
        return .proceed
    }

    /// The head is complete: build it, and refuse a declared body over the limit before reading it (413).
    mutating func headersComplete(
        method: String, versionMajor: Int, versionMinor: Int, contentLength: UInt64
    ) -> CallbackVerdict {
        guard versionMajor == 1 else {
            // An HTTP/0.9 request line has no version at all (RFC 9112 §2.3): refuse it like any non-1.x version.
            pendingFailure = .versionNotSupported("\(versionMajor).\(versionMinor)")
            return .fail
        }
        guard contentLength <= UInt64(max(limits.maxBodyBytes, 0)) else {
            pendingFailure = .declaredBodyTooLarge(length: contentLength, limit: limits.maxBodyBytes)
            return .fail
        }
        let fields = message.takeFields()
        if let coding = Self.unsupportedTransferCoding(in: fields) {
            pendingFailure = .transferCodingNotImplemented(coding)
            return .fail
        }
        message.setHead(
            HTTPRequest(
                method: method, target: message.takeTarget(), versionMajor: versionMajor, versionMinor: versionMinor,
                fields: fields))
        areHeadersComplete = true
        if contentLength > 0 { message.body.reserveCapacity(Int(min(contentLength, 1 << 16))) }
        if let expect = message.expect {
            guard expect.lowercased() == "100-continue" else {
                pendingFailure = .expectationFailed(expect)
                return .fail
            }
            let hasBody = contentLength > 0 || fields["Transfer-Encoding"] != nil
            if versionMinor >= 1, hasBody { complete(.continueExpected) }
        }
        return .proceed
    }

    /// The first transfer coding other than `chunked` in the `Transfer-Encoding` fields of a framing llhttp accepts
    /// (`chunked` last), or nil. RFC 9112 §6.1: only `chunked` is implemented here, so `gzip, chunked` is 501; a list
    /// whose last coding is not `chunked` leaves the body length unknown, which llhttp refuses with 400 (§6.3).
    static func unsupportedTransferCoding(in fields: HTTPFields) -> String? {
        var unsupported: String?
        var lastIsChunked = false
        for value in fields.values("Transfer-Encoding") {
            for element in value.utf8.split(separator: UInt8(ascii: ",")) {
                let coding = trimmingOWS(element.split(separator: UInt8(ascii: ";"), maxSplits: 1).first ?? element[...])
                if coding.isEmpty { continue }
                lastIsChunked = asciiCaseInsensitiveEqual(coding, "chunked".utf8)
                if !lastIsChunked, unsupported == nil { unsupported = String(decoding: coding, as: UTF8.self) }
            }
        }
        return lastIsChunked ? unsupported : nil
    }

    /// A piece of the (de-chunked) body; a body growing over the limit fails with 413.
    mutating func bodyData(_ bytes: UnsafeBufferPointer<UInt8>) -> CallbackVerdict {
        guard message.body.count + bytes.count <= limits.maxBodyBytes else {
            pendingFailure = .chunkedBodyTooLarge(limit: limits.maxBodyBytes)
            return .fail
        }
        message.body.append(contentsOf: bytes)
        return .proceed
    }

    /// The request is complete: queue it, or hold it for the upgrade hand-off, or stop after a last request.
    mutating func messageComplete(keepAlive: Bool, upgrade: Bool) -> CallbackVerdict {
        guard var request = message.takeHead() else { return .fail }
        var body = message.takeBody()
        swap(&request.body, &body)
        request.keepAlive = keepAlive
        request.isUpgrade = upgrade
        message.reset()
        isMidMessage = false
        areHeadersComplete = false
        if upgrade {
            pendingUpgrade = request
            return .proceed
        }
        complete(.request(consume request))
        return keepAlive ? .proceed : .pause
    }
}
