import Testing
import WebSocket

/// Reading through `WebSocketConnection`: fragments with interleaved control frames (RFC 6455 §5.4), one delivery
/// per call, any split of the input.
@Suite struct ConnectionReadTests {
    /// "hello " + ping + "world" + pong + "!" as three fragments with control frames between them.
    func interleaved(_ role: WebSocketRole) -> [UInt8] {
        peerFrame(to: role, .text, utf8("hello "), fin: false) + peerFrame(to: role, .ping, utf8("p1"))
            + peerFrame(to: role, .continuation, utf8("wörld"), fin: false) + peerFrame(to: role, .pong, [])
            + peerFrame(to: role, .continuation, utf8("!"), fin: true)
    }

    @Test(arguments: [WebSocketRole.server, .client])
    func fragmentsAroundControlFrames(role: WebSocketRole) {
        var machine = openMachine(role, liveness: false)
        let actions = machine.feed(interleaved(role))
        #expect(actions.count == 2)
        #expect(actions.first.map { describe($0, from: role) } == "write pong")
        #expect(actions.last == .deliver(.text(utf8("hello wörld!"))))
    }

    @Test func everySplitGivesTheSameActions() {
        let stream = interleaved(.server) + peerFrame(to: .server, .binary, [1, 2, 3])
        var whole = openMachine(.server, liveness: false)
        let expected = whole.feed(stream)
        for cut in 0...stream.count {
            var machine = openMachine(.server, liveness: false)
            let actions = machine.feed(Array(stream[..<cut])) + machine.feed(Array(stream[cut...]))
            #expect(actions == expected, "cut at \(cut)")
        }
        var byteWise = openMachine(.server, liveness: false)
        #expect(stream.flatMap { byteWise.feed([$0]) } == expected)
    }

    @Test func oneDeliveryPerCall() {
        var machine = openMachine(.server, liveness: false)
        let stream = peerFrame(to: .server, .text, utf8("a")) + peerFrame(to: .server, .ping, [])
            + peerFrame(to: .server, .binary, [7])
        var offset = 0
        #expect(machine.readOnce(stream, from: &offset) == [.deliver(.text(utf8("a")))])
        #expect(offset == 7)
        let second = machine.readOnce(stream, from: &offset)
        #expect(second.map { describe($0, from: .server) } == ["write pong", "deliver binary"])
        #expect(offset == stream.count)
    }

    @Test func appCloseBetweenDeliveriesDropsTheRest() {
        var machine = openMachine(.server, liveness: false)
        let stream = peerFrame(to: .server, .text, utf8("a")) + peerFrame(to: .server, .text, utf8("b"))
        var offset = 0
        #expect(machine.readOnce(stream, from: &offset) == [.deliver(.text(utf8("a")))])
        _ = machine.run { $0.close(code: .goingAway, reason: "", into: &$1) }
        #expect(machine.readOnce(stream, from: &offset) == [])
        #expect(offset == stream.count)
    }

    @Test func messageLimitCountsAllFragments() {
        var machine = openMachine(.server, maxMessageBytes: 10, liveness: false)
        let stream = peerFrame(to: .server, .binary, [UInt8](repeating: 1, count: 6), fin: false)
            + peerFrame(to: .server, .continuation, [UInt8](repeating: 2, count: 5))
        let actions = machine.feed(stream)
        #expect(actions.first.map { describe($0, from: .server) } == "write close 1009")
        #expect(machine.state == .closed)
    }

    @Test func invalidUTF8AcrossFragmentsFailsAtOnce() {
        var machine = openMachine(.server, liveness: false)
        let first = peerFrame(to: .server, .text, [0x61, 0xE2, 0x82], fin: false)
        #expect(machine.feed(first) == [])
        let actions = machine.feed(peerFrame(to: .server, .continuation, [0x28], fin: false))
        #expect(actions.first.map { describe($0, from: .server) } == "write close 1007")
    }

    @Test func messagesBeforeABadFrameAreDelivered() {
        var machine = openMachine(.server, liveness: false)
        let actions = machine.feed(peerFrame(to: .server, .text, utf8("ok")) + badPeerFrame(to: .server))
        #expect(actions.map { describe($0, from: .server) } == ["deliver text", "write close 1002", "close afterWrites"])
    }

    @Test func controlFrameInsideAFragmentedMessageMayNotBeFragmented() {
        var machine = openMachine(.server, liveness: false)
        let stream = peerFrame(to: .server, .text, utf8("a"), fin: false) + peerFrame(to: .server, .ping, [], fin: false)
        #expect(machine.feed(stream).first.map { describe($0, from: .server) } == "write close 1002")
    }
}
