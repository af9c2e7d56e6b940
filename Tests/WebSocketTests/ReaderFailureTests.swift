import Testing
import WebSocket

/// One test per close-code-1002 rule of the reader (RFC 6455 §5.1–§5.5, §7.4).
@Suite struct ReaderProtocolErrorTests {
    func expectProtocolError(_ result: WebSocketReadResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.failure?.closeCode == .protocolError, sourceLocation: sourceLocation)
    }

    @Test func unmaskedFrameFromClient() {
        expectProtocolError(serverRead(WebSocketFrameEncoder.frame(opcode: .text, payload: utf8("hi"))))
    }

    @Test func maskedFrameFromServer() {
        var reader = WebSocketReader(role: .client, maxMessageBytes: 1024)
        expectProtocolError(reader.read(clientFrame(.text, utf8("hi"))))
    }

    @Test(arguments: [UInt8(0x40), 0x20, 0x10])
    func reservedBitSet(bit: UInt8) {
        expectProtocolError(serverRead(rawClientFrame(firstByte: 0x82 | bit, [1, 2, 3])))
    }

    @Test(arguments: [UInt8(3), 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF])
    func reservedOpcode(opcode: UInt8) {
        expectProtocolError(serverRead(rawClientFrame(firstByte: 0x80 | opcode, [])))
    }

    @Test func controlFrameOver125Bytes() {
        expectProtocolError(serverRead(clientFrame(.ping, [UInt8](repeating: 1, count: 126))))
    }

    @Test func controlFrameOver125BytesFailsFromTwoHeaderBytes() {
        expectProtocolError(serverRead([0x89, 0x80 | 126]))
    }

    @Test func fragmentedControlFrame() {
        expectProtocolError(serverRead(clientFrame(.ping, [1], fin: false)))
    }

    @Test func continuationWithoutMessage() {
        expectProtocolError(serverRead(clientFrame(.continuation, utf8("x"))))
    }

    @Test func newDataFrameWhileFragmentedMessageOpen() {
        let bytes = clientFrame(.text, utf8("a"), fin: false) + clientFrame(.binary, [1])
        expectProtocolError(serverRead(bytes))
    }

    @Test func closePayloadOfOneByte() {
        expectProtocolError(serverRead(clientFrame(.close, [0x03])))
    }

    @Test(arguments: [UInt16(0), 999, 1004, 1005, 1006, 1015, 1016, 2000, 2999, 5000, 65_535])
    func closeCodeNotSendable(code: UInt16) {
        expectProtocolError(serverRead(clientFrame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)])))
    }

    /// 1012–1014 were registered with IANA after RFC 6455 (service restart, try again later, bad gateway).
    @Test(arguments: [UInt16(1000), 1001, 1003, 1007, 1011, 1012, 1013, 1014, 3000, 4999])
    func sendableCloseCodeIsAccepted(code: UInt16) {
        let result = serverRead(clientFrame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + utf8("ok")))
        #expect(result == WebSocketReadResult(messages: [.close(code: code, reason: "ok")]))
    }

    @Test func sixtyFourBitLengthWithMostSignificantBitSet() {
        let header: [UInt8] = [0x82, 0x80 | 127, 0x80, 0, 0, 0, 0, 0, 0, 1] + [1, 2, 3, 4]
        expectProtocolError(serverRead(header, maxMessageBytes: Int.max))
    }

    @Test func messagesBeforeFailureAreKeptAndLaterInputIgnored() {
        var reader = WebSocketReader(role: .server, maxMessageBytes: 1024)
        let result = reader.read(clientFrame(.text, utf8("ok")) + clientFrame(.continuation, []))
        #expect(result.messages == [.text("ok")])
        #expect(result.failure?.closeCode == .protocolError)
        let readResult = reader.read(clientFrame(.text, utf8("later")))
        #expect(readResult == WebSocketReadResult())
    }
}

/// Close codes 1007 (invalid UTF-8) and 1009 (too big).
@Suite struct ReaderPayloadFailureTests {
    @Test func invalidUTF8InSingleTextFrame() {
        let result = serverRead(clientFrame(.text, [0x61, 0xC0, 0xAF]))
        #expect(result.failure?.closeCode == .invalidFramePayloadData)
    }

    @Test func invalidByteFailsBeforeTheFrameEnds() {
        // A 10-byte text frame of which only 3 payload bytes (one invalid) have arrived.
        let frame = clientFrame(.text, [0x61, 0xFF] + [UInt8](repeating: 0x61, count: 8))
        var reader = WebSocketReader(role: .server, maxMessageBytes: 1024)
        let readResult = reader.read(Array(frame.prefix(2 + 4 + 3)))
        #expect(readResult.failure?.closeCode == .invalidFramePayloadData)
    }

    @Test func codePointSplitAcrossFramesThenBroken() {
        // "€" is E2 82 AC; the second fragment continues with an ASCII byte instead.
        let bytes = clientFrame(.text, [0x61, 0xE2, 0x82], fin: false) + clientFrame(.continuation, [0x28], fin: false)
        #expect(serverRead(bytes).failure?.closeCode == .invalidFramePayloadData)
    }

    @Test func codePointSplitAcrossReadsThenBroken() {
        let frame = clientFrame(.text, [0xF0, 0x9F, 0x98, 0x41, 0x41], fin: false)
        var reader = WebSocketReader(role: .server, maxMessageBytes: 1024)
        let first = reader.read(Array(frame.prefix(8)))  // header (6) + F0 9F
        let second = reader.read(Array(frame.dropFirst(8)))  // 98 41 41
        #expect(first == WebSocketReadResult())
        #expect(second.failure?.closeCode == .invalidFramePayloadData)
    }

    @Test func unfinishedSequenceAtEndOfMessage() {
        let bytes = clientFrame(.text, [0x61, 0xE2], fin: false) + clientFrame(.continuation, [0x82])
        #expect(serverRead(bytes).failure?.closeCode == .invalidFramePayloadData)
    }

    @Test func invalidUTF8InCloseReason() {
        #expect(serverRead(clientFrame(.close, [0x03, 0xE8, 0xED, 0xA0, 0x80])).failure?.closeCode
            == .invalidFramePayloadData)
        #expect(serverRead(clientFrame(.close, [0x03, 0xE8, 0x61, 0xE2, 0x82])).failure?.closeCode
            == .invalidFramePayloadData)
    }

    @Test func binaryFramesAreNotUTF8Checked() {
        #expect(serverRead(clientFrame(.binary, [0xFF, 0xC0])).messages == [.binary([0xFF, 0xC0])])
    }

    @Test func singleFrameOverLimitFailsFromHeaderAlone() {
        // Only the header of a 101-byte frame: the limit is 100, so no payload needs to arrive.
        let header = Array(clientFrame(.binary, [UInt8](repeating: 0, count: 101)).prefix(6))
        #expect(serverRead(header, maxMessageBytes: 100).failure?.closeCode == .messageTooBig)
    }

    @Test func huge64BitLengthFailsFromHeaderAlone() {
        let header: [UInt8] = [0x82, 0x80 | 127, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3, 4]
        #expect(serverRead(header, maxMessageBytes: 1 << 20).failure?.closeCode == .messageTooBig)
    }

    @Test func fragmentsSummingOverLimit() {
        let bytes = clientFrame(.text, utf8("12345"), fin: false) + clientFrame(.continuation, utf8("123456"))
        #expect(serverRead(bytes, maxMessageBytes: 10).failure?.closeCode == .messageTooBig)
        let exact = clientFrame(.text, utf8("12345"), fin: false) + clientFrame(.continuation, utf8("12345"))
        #expect(serverRead(exact, maxMessageBytes: 10).messages == [.text("1234512345")])
    }

    @Test func controlFramesDoNotCountTowardsTheLimit() {
        let bytes = clientFrame(.text, utf8("1234"), fin: false) + clientFrame(.ping, utf8("pingpong"))
            + clientFrame(.continuation, utf8("5"))
        #expect(serverRead(bytes, maxMessageBytes: 5) == WebSocketReadResult(messages: [.ping(utf8("pingpong")), .text("12345")]))
    }
}
