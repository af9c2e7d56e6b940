import Testing
import WebSocket

/// The closing handshake (RFC 6455 §5.5.1, §7.1.1–§7.1.7) of `WebSocketConnection`, both directions and both roles.
@Suite struct ConnectionCloseHandshakeTests {
    func closeFrame(_ role: WebSocketRole, code: WebSocketCloseCode?, reason: String = "") -> [UInt8] {
        peerFrame(to: role, .close, code.map { WebSocketFrameEncoder.closePayload(code: $0, reason: reason) } ?? [])
    }

    @Test func peerCloseIsEchoedWithItsCodeAndNoReason() {
        var machine = openMachine(.server, liveness: false)
        let actions = machine.feed(closeFrame(.server, code: .goingAway, reason: "tab closed"))
        #expect(actions == [
            .write([0x88, 0x02, 0x03, 0xE9]),
            .close(afterWrites: true, cause: .peerClosed(code: 1001)),
        ])
        #expect(machine.state == .closed)
        #expect(!machine.mayWriteData)
    }

    @Test func peerCloseWithoutCodeIsEchoedWithout() {
        var machine = openMachine(.server, liveness: false)
        #expect(machine.feed(closeFrame(.server, code: nil)) == [
            .write([0x88, 0x00]), .close(afterWrites: true, cause: .peerClosed(code: nil)),
        ])
    }

    @Test func bytesAfterThePeersCloseAreIgnored() {
        var machine = openMachine(.server, liveness: false)
        let stream = closeFrame(.server, code: .normalClosure) + peerFrame(to: .server, .text, utf8("late"))
            + peerFrame(to: .server, .ping, [])
        let actions = machine.feed(stream)
        #expect(actions.count == 2)
        #expect(machine.feed(peerFrame(to: .server, .ping, [])) == [])
    }

    @Test func serverInitiatedCloseCompletesOnThePeersClose() {
        var machine = openMachine(.server)
        let start = machine.run { $0.close(code: .normalClosure, reason: "store deleted", into: &$1) }
        #expect(start.count == 4)
        #expect(start.first.map { describe($0, from: .server) } == "write close 1000")
        #expect(Array(start.dropFirst()) == [
            .cancelTimer(.keepAlive), .resumeReading, .armTimer(.close, milliseconds: 1000),
        ])
        #expect(machine.mustReadForClose)
        // Data still in flight from the client is dropped; a ping is still answered (§5.5.2).
        #expect(machine.feed(peerFrame(to: .server, .text, utf8("action"))) == [])
        #expect(machine.feed(peerFrame(to: .server, .ping, [])).map { describe($0, from: .server) } == ["write pong"])
        #expect(machine.feed(closeFrame(.server, code: .normalClosure)) == [
            .cancelTimer(.close), .close(afterWrites: false, cause: .peerClosed(code: 1000)),
        ])
        #expect(machine.state == .closed)
    }

    @Test func ourCloseTimesOutWhenThePeerNeverAnswers() {
        var machine = openMachine(.server, liveness: false)
        _ = machine.run { $0.close(code: .goingAway, reason: "server shutting down", into: &$1) }
        #expect(machine.run { $0.timerFired(.close, .init(now: 1000), into: &$1) } == [
            .close(afterWrites: false, cause: .closeTimedOut),
        ])
        #expect(machine.state == .closed)
        // A second close request changes nothing: only one Close is ever sent (§5.5.1).
        #expect(machine.run { $0.close(code: .goingAway, reason: "again", into: &$1) } == [])
    }

    @Test func closeReasonIsCutToFit125Bytes() {
        var machine = openMachine(.server, liveness: false)
        let actions = machine.run { $0.close(code: .goingAway, reason: String(repeating: "é", count: 100), into: &$1) }
        guard case .write(let frame)? = actions.first else { return #expect(Bool(false), "no Close written") }
        #expect(frame[1] <= 125)
        #expect(describeFrame(frame, from: .server) == "close 1001")
    }

    @Test func clientEchoesThenWaitsForTheServersEOF() {
        var machine = openMachine(.client, liveness: false)
        let actions = machine.feed(closeFrame(.client, code: .normalClosure))
        #expect(actions.map { describe($0, from: .client) } == ["write close 1000", "arm close 1000"])
        #expect(machine.state == .awaitingEOF)
        #expect(machine.run { $0.peerEnded(into: &$1) } == [.cancelTimer(.close), .close(afterWrites: false, cause: .peerEnded)])
    }

    @Test func clientInitiatedCloseWaitsForTheServerToEndTCP() {
        var machine = openMachine(.client, liveness: false)
        let start = machine.run { $0.close(code: .normalClosure, reason: "", into: &$1) }
        #expect(start.map { describe($0, from: .client) } == ["write close 1000", "resumeReading", "arm close 1000"])
        #expect(machine.feed(closeFrame(.client, code: .normalClosure)) == [])
        #expect(machine.state == .awaitingEOF)
        #expect(machine.run { $0.timerFired(.close, .init(now: 1000), into: &$1) } == [
            .close(afterWrites: false, cause: .closeTimedOut),
        ])
    }

    /// §7.1.7 with the codes of §7.4.1: the Close carries the reader's code and reason, then TCP ends.
    @Test(arguments: [
        ([0x88, 0x81] + [1, 2, 3, 4] + [0x03 ^ 1], 1002),  // 1-byte Close payload
        (WebSocketFrameEncoder.frame(opcode: .close, payload: [0x03, 0xED], maskingKey: (1, 2, 3, 4)), 1002),  // 1005 on the wire
        (WebSocketFrameEncoder.frame(opcode: .close, payload: [0x03, 0xE8, 0xFF], maskingKey: (1, 2, 3, 4)), 1007),  // bad reason
        (WebSocketFrameEncoder.frame(opcode: .text, payload: [0xC3, 0x28], maskingKey: (1, 2, 3, 4)), 1007),
        (WebSocketFrameEncoder.frame(opcode: .binary, payload: [UInt8](repeating: 0, count: 65), maskingKey: (1, 2, 3, 4)), 1009),
        (WebSocketFrameEncoder.frame(opcode: .continuation, payload: [1], maskingKey: (1, 2, 3, 4)), 1002),
    ] as [([UInt8], UInt16)])
    func protocolErrorsFailTheConnection(frame: [UInt8], code: UInt16) {
        var machine = openMachine(.server, maxMessageBytes: 64, liveness: false)
        let actions = machine.feed(frame)
        #expect(actions.count == 2)
        #expect(actions.first.map { describe($0, from: .server) } == "write close \(code)")
        guard case .close(true, .failed(let failure))? = actions.last else { return #expect(Bool(false), "\(actions)") }
        #expect(failure.closeCode.rawValue == code)
        #expect(machine.state == .closed)
    }

    @Test func failureReasonTravelsInTheClose() {
        var machine = openMachine(.server, liveness: false)
        let actions = machine.feed(WebSocketFrameEncoder.frame(opcode: .text, payload: [0xFF], maskingKey: rfcKey))
        guard case .write(let frame)? = actions.first else { return #expect(Bool(false)) }
        var peer = WebSocketReader(role: .client, maxMessageBytes: 1 << 10)
        #expect(peer.read(frame).messages == [.close(code: 1007, reason: "Text message is not valid UTF-8.")])
    }

    @Test func appFailureDuringTheHandshakeSendsNoSecondClose() {
        var machine = openMachine(.server, liveness: false)
        _ = machine.run { $0.close(code: .goingAway, reason: "", into: &$1) }
        let failure = WebSocketFailure(closeCode: WebSocketCloseCode(rawValue: 4008), reason: "behind")
        #expect(machine.run { $0.fail(failure, into: &$1) } == [
            .cancelTimer(.close), .close(afterWrites: true, cause: .failed(failure)),
        ])
    }
}

/// The peer's Close is kept (code and reason) for the adapter: a client hears of the end only at the server's EOF.
@Suite struct ReceivedCloseTests {
    @Test func theClientKeepsTheServersCodeAndReasonUntilEOF() {
        var machine = openMachine(.client, liveness: false)
        #expect(machine.receivedClose == nil)
        let close = peerFrame(to: .client, .close, WebSocketFrameEncoder.closePayload(code: .goingAway, reason: "shutting down"))
        _ = machine.feed(close)
        #expect(machine.state == .awaitingEOF)
        #expect(machine.receivedClose == .init(code: 1001, reason: "shutting down"))
        var actions: [Action] = []
        machine.peerEnded(into: &actions)
        #expect(machine.state == .closed)
        #expect(machine.receivedClose?.code == 1001)
    }

    @Test func aCloseWithoutBodyHasNoCode() {
        var machine = openMachine(.client, liveness: false)
        _ = machine.feed(peerFrame(to: .client, .close, []))
        #expect(machine.receivedClose == .init(code: nil, reason: ""))
    }
}
