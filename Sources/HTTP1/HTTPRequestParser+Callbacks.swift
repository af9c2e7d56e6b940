private import CLLHTTP

/// The llhttp settings all request parsers share, type-erased so no llhttp type leaves this file's import.
///
/// llhttp keeps a pointer to its settings for the parser's lifetime, so they live at a fixed heap address
/// that is never freed. Written once during lazy global initialisation, then only read.
nonisolated(unsafe) let requestParserSettings: UnsafeRawPointer = {
    let settings = UnsafeMutablePointer<llhttp_settings_t>.allocate(capacity: 1)
    llhttp_settings_init(settings)
    settings.pointee.on_message_begin = { p in code(state(p)?.pointee.messageBegan()) }
    settings.pointee.on_method = { p, at, n in code(state(p)?.pointee.headData(.method, span(at, n))) }
    settings.pointee.on_url = { p, at, n in code(state(p)?.pointee.headData(.target, span(at, n))) }
    settings.pointee.on_version = { p, at, n in code(state(p)?.pointee.headData(.version, span(at, n))) }
    settings.pointee.on_version_complete = { p in
        code(state(p)?.pointee.versionComplete(major: Int(llhttp_get_http_major(p))))
    }
    settings.pointee.on_header_field = { p, at, n in code(state(p)?.pointee.headData(.fieldName, span(at, n))) }
    settings.pointee.on_header_value = { p, at, n in code(state(p)?.pointee.headData(.fieldValue, span(at, n))) }
    settings.pointee.on_header_value_complete = { p in code(state(p)?.pointee.fieldComplete()) }
    settings.pointee.on_headers_complete = { p in
        guard let p else { return -1 }
        return code(
            state(p)?.pointee.headersComplete(
                method: methodName(llhttp_get_method(p)),
                versionMajor: Int(llhttp_get_http_major(p)),
                versionMinor: Int(llhttp_get_http_minor(p)),
                contentLength: p.pointee.content_length))
    }
    settings.pointee.on_body = { p, at, n in code(state(p)?.pointee.bodyData(span(at, n))) }
    settings.pointee.on_message_complete = { p in
        let keepAlive = llhttp_should_keep_alive(p) != 0
        return code(state(p)?.pointee.messageComplete(keepAlive: keepAlive, upgrade: llhttp_get_upgrade(p) != 0))
    }
    return UnsafeRawPointer(settings)
}()

/// The state behind an llhttp parser (`data` points to the ``ParserState`` its ``HTTPRequestParser`` owns).
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
private func state(_ parser: UnsafeMutablePointer<llhttp_t>?) -> UnsafeMutablePointer<ParserState>? {
    parser?.pointee.data?.assumingMemoryBound(to: ParserState.self)
}

/// A callback's data as bytes, without copying.
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
private func span(_ at: UnsafePointer<CChar>?, _ length: Int) -> UnsafeBufferPointer<UInt8> {
    guard let at else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: UnsafeRawPointer(at).assumingMemoryBound(to: UInt8.self), count: length)
}

/// The llhttp return code for a verdict; `nil` (no state) is an error.
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
private func code(_ verdict: CallbackVerdict?) -> Int32 {
    switch verdict {
    case .proceed: 0
    case .pause: Int32(HPE_PAUSED.rawValue)
    case .fail, nil: Int32(HPE_USER.rawValue)
    }
}

/// llhttp's method names by number ("GET", "POST", …) for every method this header declares, built once.
/// (`llhttp_method_name` aborts on numbers it does not know, so the table stops at the last one.)
private let methodNames: [String] = (0...HTTP_QUERY.rawValue).map {
    String(cString: llhttp_method_name(llhttp_method_t(rawValue: $0)))
}

/// The name llhttp gives method number `method` (a number llhttp itself produced).
private func methodName(_ method: UInt8) -> String {
    let index = Int(method)
    if index < methodNames.count { return methodNames[index] }
    return String(cString: llhttp_method_name(llhttp_method_t(rawValue: UInt32(method))))
}
