private import CLLHTTP

/// The llhttp settings all response parsers share (a fixed heap address llhttp keeps; written once, then only read).
nonisolated(unsafe) let responseParserSettings: UnsafeRawPointer = {
    let settings = UnsafeMutablePointer<llhttp_settings_t>.allocate(capacity: 1)
    llhttp_settings_init(settings)
    settings.pointee.on_message_begin = { p in code(accumulator(p)?.messageBegan()) }
    settings.pointee.on_status = { p, at, n in code(accumulator(p)?.headData(.reason, span(at, n))) }
    settings.pointee.on_header_field = { p, at, n in code(accumulator(p)?.headData(.fieldName, span(at, n))) }
    settings.pointee.on_header_value = { p, at, n in code(accumulator(p)?.headData(.fieldValue, span(at, n))) }
    settings.pointee.on_header_value_complete = { p in code(accumulator(p)?.fieldComplete()) }
    settings.pointee.on_headers_complete = { p in
        guard let p, let accumulator = accumulator(p) else { return -1 }
        let verdict = accumulator.headersComplete(
            status: Int(llhttp_get_status_code(p)), versionMajor: Int(llhttp_get_http_major(p)),
            versionMinor: Int(llhttp_get_http_minor(p)), contentLength: p.pointee.content_length)
        switch verdict {
        case .proceed, .pause: return 0
        case .upgrade: return 2
        case .fail: return -1
        }
    }
    settings.pointee.on_body = { p, at, n in code(accumulator(p)?.bodyData(span(at, n))) }
    settings.pointee.on_message_complete = { p in code(accumulator(p)?.messageComplete()) }
    return UnsafeRawPointer(settings)
}()

/// The accumulator behind an llhttp parser (`data`, unretained).
private func accumulator(_ parser: UnsafeMutablePointer<llhttp_t>?) -> ResponseAccumulator? {
    guard let raw = parser?.pointee.data else { return nil }
    return Unmanaged<ResponseAccumulator>.fromOpaque(raw).takeUnretainedValue()
}

/// A callback's data as bytes, without copying.
private func span(_ at: UnsafePointer<CChar>?, _ length: Int) -> UnsafeBufferPointer<UInt8> {
    guard let at else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: UnsafeRawPointer(at).assumingMemoryBound(to: UInt8.self), count: length)
}

/// The llhttp return code for a verdict; nil (no accumulator) is an error.
private func code(_ verdict: ResponseAccumulator.Verdict?) -> Int32 {
    switch verdict {
    case .proceed: 0
    case .upgrade: 0  // only meaningful at headers-complete, handled there
    case .pause: Int32(HPE_PAUSED.rawValue)
    case .fail, nil: Int32(HPE_USER.rawValue)
    }
}
