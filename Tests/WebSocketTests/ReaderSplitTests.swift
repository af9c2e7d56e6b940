import Testing
import WebSocket
import StatehouseTestClients

/// The reader gives the same result however the stream is cut, and handles empty and interleaved frames.
@Suite struct ReaderSplitTests {
    /// Fragmented text with a code point split across fragments and a ping in the middle, a 200-byte binary
    /// message (16-bit length), an empty text message, a pong, then a Close.
    static let stream: [UInt8] =
        clientFrame(.text, utf8("Hé") + [0xE2, 0x82], fin: false)
        + clientFrame(.ping, utf8("are you there"))
        + clientFrame(.continuation, [0xAC] + utf8(" llo"), fin: false)
        + clientFrame(.continuation, [])
        + clientFrame(.binary, (0..<200).map { UInt8($0) })
        + clientFrame(.text, [])
        + clientFrame(.pong, [])
        + clientFrame(.close, [0x03, 0xE8] + utf8("bye"))

    static let expected: [WebSocketMessage] = [
        .ping(utf8("are you there")), .text("Hé€ llo"), .binary((0..<200).map { UInt8($0) }), .text(""),
        .pong([]), .close(code: 1000, reason: "bye"),
    ]

    @Test func wholeStreamInOneRead() {
        #expect(serverRead(Self.stream) == WebSocketReadResult(messages: Self.expected))
    }

    @Test func everySingleCut() {
        for cut in 0...Self.stream.count {
            var reader = WebSocketReader(role: .server, maxMessageBytes: 1024)
            let result = reader.read(Self.stream, cutAt: [cut])
            #expect(result == WebSocketReadResult(messages: Self.expected), "cut at \(cut)")
        }
    }

    @Test func byteByByte() {
        var reader = WebSocketReader(role: .server, maxMessageBytes: 1024)
        let cuts = Array(1..<Self.stream.count)
        let readResult = reader.read(Self.stream, cutAt: cuts)
        #expect(readResult == WebSocketReadResult(messages: Self.expected))
    }

    @Test func manyPseudoRandomCuts() {
        var generator = SeededGenerator(seed: 6455)
        for _ in 0..<300 {
            let count = Int.random(in: 2...12, using: &generator)
            let cuts = (0..<count).map { _ in Int.random(in: 0...Self.stream.count, using: &generator) }.sorted()
            var reader = WebSocketReader(role: .server, maxMessageBytes: 1024)
            let readResult = reader.read(Self.stream, cutAt: cuts)
            #expect(readResult == WebSocketReadResult(messages: Self.expected))
        }
    }

    @Test func inputAfterCloseIsIgnored() {
        var reader = WebSocketReader(role: .server, maxMessageBytes: 1024)
        let result = reader.read(clientFrame(.close, []) + clientFrame(.text, utf8("ignored")))
        #expect(result == WebSocketReadResult(messages: [.close(code: nil, reason: "")]))
        let readResult = reader.read(clientFrame(.text, utf8("still ignored")))
        #expect(readResult == WebSocketReadResult())
    }

    @Test func zeroLengthFramesAndMessages() {
        let bytes = clientFrame(.binary, []) + clientFrame(.ping, []) + clientFrame(.text, [], fin: false)
            + clientFrame(.continuation, [], fin: false) + clientFrame(.continuation, [])
        #expect(serverRead(bytes, maxMessageBytes: 0).messages == [.binary([]), .ping([]), .text("")])
    }

    @Test func zeroLengthFrameCompletesWithoutFurtherInput() {
        var reader = WebSocketReader(role: .server, maxMessageBytes: 16)
        // Header of an empty masked binary frame: 2 bytes + 4-byte key and nothing else.
        let readResult = reader.read([0x82, 0x80, 1, 2, 3, 4])
        #expect(readResult.messages == [.binary([])])
    }
}
