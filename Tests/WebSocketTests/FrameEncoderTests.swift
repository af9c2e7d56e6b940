import Testing
import WebSocket

/// Frame and Close payload encoding (RFC 6455 §5.2, §5.5.1), checked through the reader.
@Suite struct FrameEncoderTests {
    @Test(arguments: [0, 125, 126, 65_535, 65_536])
    func roundTripMaskedThroughServerReader(length: Int) {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let frame = clientFrame(.binary, payload)
        let maskingKeyBytes = 4
        #expect(frame.count == WebSocketFrameEncoder.headerLength(payloadLength: length) + maskingKeyBytes + length)
        #expect(serverRead(frame, maxMessageBytes: 65_536) == WebSocketReadResult(messages: [.binary(payload)]))
    }

    @Test(arguments: [0, 125, 126, 65_535, 65_536])
    func roundTripUnmaskedThroughClientReader(length: Int) {
        let text = String(repeating: "x", count: length)
        let frame = WebSocketFrameEncoder.frame(opcode: .text, payload: utf8(text))
        #expect(frame.count == WebSocketFrameEncoder.headerLength(payloadLength: length) + length)
        var reader = WebSocketReader(role: .client, maxMessageBytes: 65_536)
        let readResult = reader.read(frame)
        #expect(readResult == WebSocketReadResult(messages: [.text(text)]))
    }

    @Test func headerLengths() {
        let cases: [(Int, Int)] = [(0, 2), (125, 2), (126, 4), (65_535, 4), (65_536, 10), (1 << 40, 10)]
        for (payload, header) in cases {
            #expect(WebSocketFrameEncoder.headerLength(payloadLength: payload) == header, "payload \(payload)")
        }
    }

    @Test func writeHeaderMatchesFrame() {
        for length in [0, 5, 125, 126, 300, 65_535, 65_536] {
            var header = [UInt8](repeating: 0xEE, count: 10)
            let written = header.withUnsafeMutableBytes {
                WebSocketFrameEncoder.writeHeader(opcode: .binary, payloadLength: length, fin: false, to: $0.baseAddress!)
            }
            let frame = WebSocketFrameEncoder.frame(
                opcode: .binary, payload: [UInt8](repeating: 0, count: length), fin: false)
            #expect(written == WebSocketFrameEncoder.headerLength(payloadLength: length))
            #expect(Array(header.prefix(written)) == Array(frame.prefix(written)), "length \(length)")
            #expect(header[0] == 0x02)
        }
    }

    @Test func closePayloadShort() {
        #expect(WebSocketFrameEncoder.closePayload(code: .normalClosure, reason: "bye") == [0x03, 0xE8] + utf8("bye"))
        #expect(WebSocketFrameEncoder.closePayload(code: .messageTooBig, reason: "") == [0x03, 0xF1])
    }

    @Test(arguments: [
        (String(repeating: "a", count: 123), 123), (String(repeating: "a", count: 200), 123),
        (String(repeating: "é", count: 100), 122), (String(repeating: "€", count: 50), 123),
        ("a" + String(repeating: "€", count: 50), 121), (String(repeating: "😀", count: 40), 120),
    ])
    func closePayloadCutAtUTF8Boundary(reason: String, expectedReasonBytes: Int) {
        let payload = WebSocketFrameEncoder.closePayload(code: .goingAway, reason: reason)
        #expect(payload.count == 2 + expectedReasonBytes)
        #expect(Array(payload.dropFirst(2)) == Array(utf8(reason).prefix(expectedReasonBytes)))
        let result = serverRead(clientFrame(.close, payload))
        #expect(result.failure == nil)
        if case .close(let code, let decoded)? = result.messages.first {
            #expect(code == 1001)
            #expect(reason.hasPrefix(decoded))
        } else {
            Issue.record("expected a close message, got \(result.messages)")
        }
    }

    @Test func opcodeAndCloseCodeProperties() {
        #expect([WebSocketOpcode.close, .ping, .pong].allSatisfy { $0.isControl })
        #expect(![WebSocketOpcode.continuation, .text, .binary].contains { $0.isControl })
        #expect(WebSocketCloseCode.normalClosure.isSendable)
        #expect(!WebSocketCloseCode.noStatusReceived.isSendable)
        #expect(WebSocketCloseCode.internalServerError.rawValue == 1011)
    }
}
