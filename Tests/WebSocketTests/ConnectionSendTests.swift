import Testing
import WebSocket

/// Sending data through `WebSocketConnection`: masking by role (RFC 6455 §5.1, §5.3), framing into caller memory.
@Suite struct ConnectionSendTests {
    @Test(arguments: [0, 125, 126, 65_535, 65_536])
    func serverFramesAreUnmaskedAndMatchTheEncoder(length: Int) {
        var machine = openMachine(.server, liveness: false)
        let payload = [UInt8](repeating: 0x61, count: length)
        let frame = machine.send(.text, payload: payload)
        #expect(frame == WebSocketFrameEncoder.frame(opcode: .text, payload: payload))
        #expect(machine.frameLength(payloadCount: length) == frame?.count)
    }

    @Test(arguments: [0, 3, 200, 70_000])
    func clientFramesAreMaskedAndReadBackByAServer(length: Int) {
        var machine = openMachine(.client, liveness: false)
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
        let frame = machine.send(.binary, payload: payload)
        #expect(frame == WebSocketFrameEncoder.frame(opcode: .binary, payload: payload, maskingKey: (1, 2, 3, 4)))
        var server = WebSocketReader(role: .server, maxMessageBytes: 1 << 20)
        #expect(server.read(frame ?? []).messages == [.binary(payload)])
        #expect(machine.frameLength(payloadCount: length) == frame?.count)
    }

    @Test func randomMaskingKeysDifferFromFrameToFrame() {
        var machine = WebSocketConnection(role: .client, configuration: .init(maxMessageBytes: 100))
        let keys = (0..<8).compactMap { _ in machine.send(.text, payload: utf8("x")).map { Array($0[2..<6]) } }
        #expect(keys.count == 8)
        #expect(Set(keys).count > 1)
    }

    @Test(arguments: [WebSocketRole.server, .client])
    func encodeFrameWritesWhatSendReturns(role: WebSocketRole) {
        var machine = openMachine(role, liveness: false)
        let payload = utf8("{\"type\":\"ack\"}")
        let length = machine.frameLength(payloadCount: payload.count)
        var buffer = [UInt8](repeating: 0, count: length)
        buffer.withUnsafeMutableBytes { out in
            payload.withUnsafeBytes { machine.encodeFrame(.text, payload: $0, to: out.baseAddress!) }
        }
        #expect(buffer == machine.send(.text, payload: payload))
    }

    @Test func nothingIsSentAfterAClose() {
        var machine = openMachine(.server, liveness: false)
        #expect(machine.mayWriteData)
        _ = machine.run { $0.close(code: .normalClosure, reason: "", into: &$1) }
        #expect(!machine.mayWriteData)
        #expect(machine.send(.text, payload: utf8("late")) == nil)
        #expect(machine.ping(payload: []) != nil)  // control frames still go while the handshake runs
    }
}
