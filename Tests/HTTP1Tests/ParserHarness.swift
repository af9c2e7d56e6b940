import HTTP1
import Testing

/// Limits roomy enough that only the limit tests hit them.
let roomyLimits = HTTPParserLimits(maxHeaderBytes: 8192, maxBodyBytes: 1 << 20)

/// Feeds `chunks` to a fresh parser in order and collects the events.
///
/// After an `.upgrade` event, later chunks are appended to its leftover, as a connection would pass them
/// straight to the new protocol; so every split of one input should give the same events.
func parse(_ chunks: [[UInt8]], limits: HTTPParserLimits = roomyLimits, finish: Bool = false) -> [HTTPParseEvent] {
    let parser = HTTPRequestParser(limits: limits)
    var events: [HTTPParseEvent] = []
    for chunk in chunks {
        if case .upgrade(let request, let leftover)? = events.last {
            events[events.count - 1] = .upgrade(request, leftover: leftover + chunk)
            continue
        }
        events += chunk.withUnsafeBytes { parser.feed($0) }
    }
    if finish { events += parser.finish() }
    return events
}

/// Feeds `text` as one chunk.
func parse(_ text: String, limits: HTTPParserLimits = roomyLimits, finish: Bool = false) -> [HTTPParseEvent] {
    parse([Array(text.utf8)], limits: limits, finish: finish)
}

/// Feeds `text` in one chunk to `parser`.
func feed(_ parser: HTTPRequestParser, _ text: String) -> [HTTPParseEvent] {
    Array(text.utf8).withUnsafeBytes { parser.feed($0) }
}

/// The request of a `.request` event, or `nil`.
func requestOf(_ event: HTTPParseEvent?) -> HTTPRequest? {
    if case .request(let request)? = event { return request }
    return nil
}

/// The failure of a `.failure` event, or `nil`.
func failureOf(_ event: HTTPParseEvent?) -> HTTPParseFailure? {
    if case .failure(let failure)? = event { return failure }
    return nil
}

/// Checks that `input` gives the same events whole, split in two at every byte boundary, and fed one
/// byte at a time; returns the events of the whole input.
@discardableResult
func expectSameEventsForEverySplit(
    _ input: [UInt8],
    limits: HTTPParserLimits = roomyLimits,
    finish: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) -> [HTTPParseEvent] {
    let whole = parse([input], limits: limits, finish: finish)
    var mismatches: [Int] = []
    for cut in 0...input.count {
        let halves = [Array(input[..<cut]), Array(input[cut...])]
        if parse(halves, limits: limits, finish: finish) != whole { mismatches.append(cut) }
    }
    #expect(mismatches.isEmpty, "events differ when split at offsets \(mismatches)", sourceLocation: sourceLocation)
    let bytewise = parse(input.map { [$0] }, limits: limits, finish: finish)
    #expect(bytewise == whole, "events differ when fed one byte at a time", sourceLocation: sourceLocation)
    return whole
}
