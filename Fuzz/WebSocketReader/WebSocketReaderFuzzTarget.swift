// libFuzzer target for WebSocketReader (and UTF8Validator), linked with the WebSocket module by scripts/fuzz.
//
// Input: byte 0 picks the split (see fuzzSplits), the rest is what a client sends after the handshake. It is read
// by `WebSocketReader(role: .server, maxMessageBytes: 65536)` twice, in one read and in the chosen split, and:
// - no crash, no sanitizer report, no runtime trap;
// - a failure or a Close ends the reader: it is the last thing of its read, and every later read is empty;
// - failures carry 1002, 1007 or 1009 and a reason of at most 123 bytes; Close codes are sendable (RFC 6455 §7.4);
// - control payloads are ≤ 125 bytes, data messages ≤ 65536 bytes;
// - both runs give the same messages and failure;
// - UTF8Validator, fed the same split, accepts the input exactly when `String(validating:as:)` does.

@testable import WebSocket

private let fuzzMaxMessageBytes = 65536

/// Everything one run produced.
private struct ReaderRun: Equatable {
    var messages: [WebSocketMessage] = []
    var failure: WebSocketFailure?
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let input = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let splits = fuzzSplits(seed: data[0], count: input.count)
    let whole = readAll(input, chunks: fuzzSplits(seed: 0, count: input.count))
    let split = readAll(input, chunks: splits)
    fuzzCheck(whole == split, "split \(data[0]) changed the result:\n  whole: \(whole)\n  split: \(split)")
    checkValidator(input, chunks: splits)
    return 0
}

/// Reads `chunks` of `input` with a fresh server-side reader, checking the invariants above.
private func readAll(_ input: UnsafeRawBufferPointer, chunks: [Range<Int>]) -> ReaderRun {
    var reader = WebSocketReader(role: .server, maxMessageBytes: fuzzMaxMessageBytes)
    var run = ReaderRun()
    var ended = false
    for chunk in chunks {
        let result = reader.read(UnsafeRawBufferPointer(rebasing: input[chunk]))
        if ended {
            fuzzCheck(result.messages.isEmpty && result.failure == nil, "an ended reader produced \(result)")
            continue
        }
        for (position, message) in result.messages.enumerated() {
            check(message)
            if case .close = message {
                fuzzCheck(position == result.messages.count - 1 && result.failure == nil, "output after a Close")
                ended = true
            }
        }
        run.messages += result.messages
        if let failure = result.failure {
            fuzzCheck([1002, 1007, 1009].contains(failure.closeCode.rawValue), "failure code \(failure.closeCode)")
            fuzzCheck(failure.reason.utf8.count <= 123, "failure reason too long for a Close frame")
            run.failure = failure
            ended = true
        }
    }
    if ended {
        let after = [UInt8](repeating: 0x81, count: 8).withUnsafeBytes { reader.read($0) }
        fuzzCheck(after.messages.isEmpty && after.failure == nil, "an ended reader produced \(after)")
    }
    return run
}

/// Per-message invariants: sizes (RFC 6455 §5.5, the reader's limit) and Close codes (§7.4).
private func check(_ message: WebSocketMessage) {
    switch message {
    case .text(let text): fuzzCheck(text.utf8.count <= fuzzMaxMessageBytes, "text over the limit")
    case .binary(let bytes): fuzzCheck(bytes.count <= fuzzMaxMessageBytes, "binary over the limit")
    case .ping(let bytes), .pong(let bytes): fuzzCheck(bytes.count <= 125, "control payload over 125 bytes")
    case .close(let code, let reason):
        fuzzCheck(code.map { WebSocketCloseCode(rawValue: $0).isSendable } ?? reason.isEmpty, "bad Close \(message)")
        fuzzCheck(reason.utf8.count <= 123, "Close reason over 123 bytes")
    }
}

/// UTF8Validator (fed in `chunks`) against the standard library's UTF-8 validation of the whole input.
private func checkValidator(_ input: UnsafeRawBufferPointer, chunks: [Range<Int>]) {
    var validator = UTF8Validator()
    var valid = true
    for chunk in chunks where valid {
        valid = validator.validate(UnsafeRawBufferPointer(rebasing: input[chunk]))
    }
    valid = valid && validator.isAtBoundary
    let reference = String(validating: input, as: UTF8.self) != nil
    fuzzCheck(valid == reference, "UTF8Validator says \(valid), the standard library says \(reference)")
}
