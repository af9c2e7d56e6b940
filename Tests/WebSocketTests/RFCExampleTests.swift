import Testing
import WebSocket

/// The examples of RFC 6455 §5.7, read and encoded.
@Suite struct RFCExampleTests {
    let hello = utf8("Hello")

    @Test func singleFrameUnmaskedText() {
        var reader = WebSocketReader(role: .client, maxMessageBytes: 1024)
        let bytes: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        let readResult = reader.read(bytes)
        #expect(readResult == WebSocketReadResult(messages: [.text("Hello")]))
        #expect(WebSocketFrameEncoder.frame(opcode: .text, payload: hello) == bytes)
    }

    @Test func singleFrameMaskedText() {
        let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(serverRead(bytes) == WebSocketReadResult(messages: [.text("Hello")]))
        #expect(clientFrame(.text, hello) == bytes)
    }

    @Test func fragmentedUnmaskedText() {
        var reader = WebSocketReader(role: .client, maxMessageBytes: 1024)
        let first: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C]
        let second: [UInt8] = [0x80, 0x02, 0x6C, 0x6F]
        let afterFirst = reader.read(first)
        let afterSecond = reader.read(second)
        #expect(afterFirst == WebSocketReadResult())
        #expect(afterSecond == WebSocketReadResult(messages: [.text("Hello")]))
        #expect(WebSocketFrameEncoder.frame(opcode: .text, payload: utf8("Hel"), fin: false) == first)
        #expect(WebSocketFrameEncoder.frame(opcode: .continuation, payload: utf8("lo")) == second)
    }

    @Test func unmaskedPingAndMaskedPong() {
        var client = WebSocketReader(role: .client, maxMessageBytes: 1024)
        let ping: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        let readResult = client.read(ping)
        #expect(readResult == WebSocketReadResult(messages: [.ping(hello)]))
        #expect(WebSocketFrameEncoder.frame(opcode: .ping, payload: hello) == ping)

        let pong: [UInt8] = [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(serverRead(pong) == WebSocketReadResult(messages: [.pong(hello)]))
    }

    @Test func binary256BytesUses16BitLength() {
        let payload = (0..<256).map { UInt8(truncatingIfNeeded: $0) }
        let frame = WebSocketFrameEncoder.frame(opcode: .binary, payload: payload)
        #expect(Array(frame.prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        #expect(frame.count == 4 + 256)
        var reader = WebSocketReader(role: .client, maxMessageBytes: 1 << 20)
        let readResult = reader.read(frame)
        #expect(readResult == WebSocketReadResult(messages: [.binary(payload)]))
    }

    @Test func binary64KiBUses64BitLength() {
        let payload = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let frame = WebSocketFrameEncoder.frame(opcode: .binary, payload: payload)
        #expect(Array(frame.prefix(10)) == [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00])
        #expect(frame.count == 10 + 65_536)
        var reader = WebSocketReader(role: .client, maxMessageBytes: 1 << 20)
        let readResult = reader.read(frame)
        #expect(readResult == WebSocketReadResult(messages: [.binary(payload)]))
    }
}
