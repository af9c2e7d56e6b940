// libFuzzer target for HTTPRequestParser, linked with the HTTP1 module by scripts/fuzz.
//
// Input: byte 0 picks the split (see fuzzSplits), the rest is what a client sends. Each input is parsed twice,
// in one feed and in the chosen split, each followed by finish(), and these must hold:
// - no crash, no sanitizer report, no runtime trap;
// - after .upgrade, .failure or a request with keepAlive false, the parser is done: later feeds and finish()
//   return [] (and the event that ended it is the last of its feed);
// - finish() returns [] or exactly one 400 failure; failures are 400, 413, 417, 431, 501 or 505;
// - both runs give the same events (for .upgrade, leftover plus the bytes of later feeds is the same rest of input),
//   except that a request that is both malformed and over a size limit may end in 400 one way and 413/431 the
//   other: llhttp reports a span (target, field, body) only when it ends or the feed ends, so where the feed ends
//   decides whether the limit check sees those bytes before llhttp sees the syntax error (docs/conformance.md).

@testable import HTTP1

/// The limits of the runs: small, so 413 and 431 paths are reached by small inputs.
private let fuzzLimits = HTTPParserLimits(maxHeaderBytes: 1024, maxBodyBytes: 2048)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequestParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let input = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let whole = parseAll(input, chunks: fuzzSplits(seed: 0, count: input.count))
    let split = parseAll(input, chunks: fuzzSplits(seed: data[0], count: input.count))
    fuzzCheck(sameOutcome(whole, split), "split \(data[0]) changed the events:\n  whole: \(whole)\n  split: \(split)")
    return 0
}

/// Equal events, or equal up to a last failure that is 400 in one run and 413 or 431 in the other.
private func sameOutcome(_ a: [HTTPParseEvent], _ b: [HTTPParseEvent]) -> Bool {
    if a == b { return true }
    guard a.count == b.count, a.dropLast() == b.dropLast(),
        case .failure(let x)? = a.last, case .failure(let y)? = b.last
    else { return false }
    let statuses = Set([x.status, y.status])
    return statuses == [400, 431] || statuses == [400, 413]
}

/// Feeds `chunks` of `input` to a new parser, then finish(), checking the done-state invariants on the way.
/// An upgrade's leftover is extended with every later byte, so the result does not depend on the split.
private func parseAll(_ input: UnsafeRawBufferPointer, chunks: [Range<Int>]) -> [HTTPParseEvent] {
    let parser = HTTPRequestParser(limits: fuzzLimits)
    var events: [HTTPParseEvent] = []
    var done = false
    for chunk in chunks {
        let produced = parser.feed(UnsafeRawBufferPointer(rebasing: input[chunk]))
        fuzzCheck(!done || produced.isEmpty, "a finished parser produced \(produced)")
        for (position, event) in produced.enumerated() {
            fuzzCheck(!done, "an event followed the one that finished the parser: \(event)")
            switch event {
            case .request(let request):
                fuzzCheck(!request.isUpgrade, "an upgrade request arrived as .request")
                fuzzCheck(request.body.count <= fuzzLimits.maxBodyBytes, "a body over the limit was delivered")
                done = !request.keepAlive
                events.append(event)
            case .upgrade(let request, let leftover):
                fuzzCheck(position == produced.count - 1, "events followed an upgrade in the same feed")
                fuzzCheck(request.isUpgrade, "an .upgrade request has isUpgrade false")
                done = true
                events.append(.upgrade(request, leftover: leftover + Array(input[chunk.upperBound...])))
            case .continueExpected:
                events.append(event)
            case .failure(let failure):
                fuzzCheck([400, 413, 417, 431, 501, 505].contains(failure.status), "unexpected status \(failure.status)")
                done = true
                events.append(event)
            }
        }
    }
    let tail = parser.finish()
    if done {
        fuzzCheck(tail.isEmpty, "finish() after the end produced \(tail)")
    } else {
        fuzzCheck(tail.isEmpty || tail == [.failure(.truncated)], "finish() produced \(tail)")
    }
    events += tail
    let after = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { parser.feed($0) }
    fuzzCheck(after.isEmpty && parser.finish().isEmpty, "a parser fed after finish() produced \(after)")
    return events
}
