import Testing
import WebSocket

/// Ping/pong liveness of `WebSocketConnection` (interval 100 ms, pong timeout 50 ms; see `testLiveness`).
@Suite struct ConnectionLivenessTests {
    func tick(_ machine: inout WebSocketConnection, now: UInt64, accepted: UInt64 = 0, sent: Bool = true, paused: Bool = false)
        -> [Action]
    {
        let status = WebSocketConnection.TransportStatus(
            now: now, acceptedBytes: accepted, pingIsSent: sent, isWritePaused: paused)
        return machine.run { $0.timerFired(.keepAlive, status, into: &$1) }
    }

    @Test func silenceIsPingedAndAnAnswerKeepsTheConnection() {
        var machine = openMachine(.server)
        let ping = tick(&machine, now: 100, accepted: 500)
        #expect(ping.map { describe($0, from: .server) } == ["write ping", "arm keepAlive 50"])
        #expect(machine.awaitedPingEnd == 504)  // 2-byte header + "hi"
        _ = machine.feed(peerFrame(to: .server, .pong, utf8("hi")), now: 120)
        // Heard at 120: the next ping is due at 220.
        #expect(tick(&machine, now: 150) == [.armTimer(.keepAlive, milliseconds: 70)])
        #expect(machine.awaitedPingEnd == nil)
    }

    @Test func anyInputCountsAsAnAnswer() {
        var machine = openMachine(.server)
        _ = tick(&machine, now: 100)
        _ = machine.feed(peerFrame(to: .server, .text, utf8("{}")), now: 130)
        #expect(tick(&machine, now: 150) == [.armTimer(.keepAlive, milliseconds: 80)])
    }

    @Test func activityPostponesThePing() {
        var machine = openMachine(.server)
        _ = machine.feed(peerFrame(to: .server, .text, utf8("{}")), now: 60)
        #expect(tick(&machine, now: 100) == [.armTimer(.keepAlive, milliseconds: 60)])
        #expect(tick(&machine, now: 160).map { describe($0, from: .server) } == ["write ping", "arm keepAlive 50"])
    }

    @Test func noAnswerWithinThePongTimeoutDrops() {
        var machine = openMachine(.server)
        _ = tick(&machine, now: 100)
        #expect(tick(&machine, now: 150) == [.close(afterWrites: false, cause: .noPong)])
        #expect(machine.state == .closed)
    }

    @Test func anUnsentPingHoldsTheWaitThenGetsAFullOneMore() {
        var machine = openMachine(.server)
        _ = tick(&machine, now: 100)
        #expect(tick(&machine, now: 150, sent: false) == [.armTimer(.keepAlive, milliseconds: 50)])
        #expect(tick(&machine, now: 200, sent: true) == [.armTimer(.keepAlive, milliseconds: 50)])
        #expect(tick(&machine, now: 250, sent: true) == [.close(afterWrites: false, cause: .noPong)])
    }

    /// The rule of the server's slow consumers: while write-paused it reads nothing, so it is never dropped for a
    /// missing pong (its lag and write-stall rules see it instead).
    @Test func aWritePausedConnectionIsNeverDroppedForAMissingPong() {
        var machine = openMachine(.server)
        _ = tick(&machine, now: 100)
        for step in 1...20 {
            #expect(tick(&machine, now: 100 + UInt64(step) * 50, paused: true) == [.armTimer(.keepAlive, milliseconds: 50)])
        }
        #expect(machine.state == .open)
        // Writable again and still silent: one full wait more, then dropped.
        #expect(tick(&machine, now: 1150) == [.armTimer(.keepAlive, milliseconds: 50)])
        #expect(tick(&machine, now: 1200) == [.close(afterWrites: false, cause: .noPong)])
    }

    @Test func clientPingsAreMasked() {
        var machine = openMachine(.client)
        let actions = tick(&machine, now: 100)
        guard case .write(let frame)? = actions.first else { return #expect(Bool(false)) }
        #expect(frame[1] & 0x80 != 0)
        #expect(describeFrame(frame, from: .client) == "ping")
        #expect(machine.awaitedPingEnd == UInt64(frame.count))
    }

    @Test func noLivenessMeansNoTimers() {
        var machine = openMachine(.server, liveness: false)
        #expect(machine.run { $0.startLiveness(now: 0, into: &$1) } == [])
        #expect(tick(&machine, now: 10_000) == [])
        #expect(machine.run { $0.close(code: .goingAway, reason: "", into: &$1) }.contains(.cancelTimer(.keepAlive)) == false)
    }
}
