import Testing
import WebSocket

/// Every state × every event of `WebSocketConnection`, in both roles, against a table written out by hand from
/// RFC 6455 (§5.5, §7.1): the state after the event and the actions (written frames as the peer reads them).
@Suite struct ConnectionStateTableTests {
    /// Everything that can happen to a connection.
    enum Event: String, CaseIterable {
        case textIn, pingIn, pongIn, closeIn, badFrameIn, sendText, sendPing, close, fail, peerEOF, closeTimer,
            keepAliveTimer, startLiveness
    }

    /// A machine in `state` (nil when `role` cannot reach it: only a client waits for EOF).
    static func machine(_ role: WebSocketRole, in state: WebSocketConnection.State) -> WebSocketConnection? {
        var machine = openMachine(role)
        switch state {
        case .open: break
        case .closeSent: _ = machine.run { $0.close(code: .goingAway, reason: "bye", into: &$1) }
        case .awaitingEOF:
            guard role == .client else { return nil }
            _ = machine.feed(peerFrame(to: role, .close, WebSocketFrameEncoder.closePayload(code: .normalClosure, reason: "")))
        case .closed: _ = machine.run { $0.peerEnded(into: &$1) }
        }
        precondition(machine.state == state)
        return machine
    }

    /// Runs `event` and describes the outcome: "<state>: <action>, <action>" ("-" for none); a send's returned frame
    /// is shown as "→ <frame>" or "→ nil".
    static func outcome(_ role: WebSocketRole, _ machine: inout WebSocketConnection, _ event: Event) -> String {
        var actions: [Action] = []
        var returned: String?
        switch event {
        case .textIn: actions = machine.feed(peerFrame(to: role, .text, utf8("hello")))
        case .pingIn: actions = machine.feed(peerFrame(to: role, .ping, utf8("p")))
        case .pongIn: actions = machine.feed(peerFrame(to: role, .pong, utf8("p")))
        case .closeIn:
            actions = machine.feed(peerFrame(to: role, .close, WebSocketFrameEncoder.closePayload(code: .normalClosure, reason: "done")))
        case .badFrameIn: actions = machine.feed(badPeerFrame(to: role))
        case .sendText: returned = machine.send(.text, payload: utf8("hi")).map { describeFrame($0, from: role) } ?? "nil"
        case .sendPing: returned = machine.ping(payload: utf8("p")).map { describeFrame($0, from: role) } ?? "nil"
        case .close: actions = machine.run { $0.close(code: .goingAway, reason: "bye", into: &$1) }
        case .fail:
            let failure = WebSocketFailure(closeCode: WebSocketCloseCode(rawValue: 4008), reason: "too slow")
            actions = machine.run { $0.fail(failure, into: &$1) }
        case .peerEOF: actions = machine.run { $0.peerEnded(into: &$1) }
        case .closeTimer: actions = machine.run { $0.timerFired(.close, .init(now: 100), into: &$1) }
        case .keepAliveTimer: actions = machine.run { $0.timerFired(.keepAlive, .init(now: 100), into: &$1) }
        case .startLiveness: actions = machine.run { $0.startLiveness(now: 100, into: &$1) }
        }
        var parts = actions.map { describe($0, from: role) }
        if let returned { parts.append("→ " + returned) }
        return "\(machine.state): " + (parts.isEmpty ? "-" : parts.joined(separator: ", "))
    }

    /// What a server and a client do in the states both share, when the answer is the same for both roles.
    static let shared: [String: String] = [
        "open textIn": "open: deliver text",
        "open pingIn": "open: write pong",
        "open pongIn": "open: -",
        "open badFrameIn": "closed: write close 1002, cancel keepAlive, close afterWrites",
        "open sendText": "open: → text hi",
        "open sendPing": "open: → ping",
        "open close": "closeSent: write close 1001, cancel keepAlive, resumeReading, arm close 1000",
        "open fail": "closed: write close 4008, cancel keepAlive, close afterWrites",
        "open peerEOF": "closed: cancel keepAlive, close now",
        "open closeTimer": "open: -",
        "open keepAliveTimer": "open: write ping, arm keepAlive 50",
        "open startLiveness": "open: -",

        "closeSent textIn": "closeSent: -",
        "closeSent pingIn": "closeSent: write pong",
        "closeSent pongIn": "closeSent: -",
        "closeSent badFrameIn": "closed: cancel close, close afterWrites",
        "closeSent sendText": "closeSent: → nil",
        "closeSent sendPing": "closeSent: → ping",
        "closeSent close": "closeSent: -",
        "closeSent fail": "closed: cancel close, close afterWrites",
        "closeSent peerEOF": "closed: cancel close, close now",
        "closeSent closeTimer": "closed: close now",
        "closeSent keepAliveTimer": "closeSent: -",
        "closeSent startLiveness": "closeSent: -",

        "closed textIn": "closed: -",
        "closed pingIn": "closed: -",
        "closed pongIn": "closed: -",
        "closed closeIn": "closed: -",
        "closed badFrameIn": "closed: -",
        "closed sendText": "closed: → nil",
        "closed sendPing": "closed: → nil",
        "closed close": "closed: -",
        "closed fail": "closed: -",
        "closed peerEOF": "closed: close now",
        "closed closeTimer": "closed: -",
        "closed keepAliveTimer": "closed: -",
        "closed startLiveness": "closed: -",
    ]

    /// Where the roles differ (§7.1.1: the server ends TCP first; a client waits for it).
    static let server: [String: String] = [
        "open closeIn": "closed: write close 1000, cancel keepAlive, close afterWrites",
        "closeSent closeIn": "closed: cancel close, close now",
    ]
    static let client: [String: String] = [
        "open closeIn": "awaitingEOF: write close 1000, cancel keepAlive, arm close 1000",
        "closeSent closeIn": "awaitingEOF: -",

        "awaitingEOF textIn": "awaitingEOF: -",
        "awaitingEOF pingIn": "awaitingEOF: -",
        "awaitingEOF pongIn": "awaitingEOF: -",
        "awaitingEOF closeIn": "awaitingEOF: -",
        "awaitingEOF badFrameIn": "awaitingEOF: -",
        "awaitingEOF sendText": "awaitingEOF: → nil",
        "awaitingEOF sendPing": "awaitingEOF: → nil",
        "awaitingEOF close": "awaitingEOF: -",
        "awaitingEOF fail": "closed: cancel close, close afterWrites",
        "awaitingEOF peerEOF": "closed: cancel close, close now",
        "awaitingEOF closeTimer": "closed: close now",
        "awaitingEOF keepAliveTimer": "awaitingEOF: -",
        "awaitingEOF startLiveness": "awaitingEOF: -",
    ]

    @Test(arguments: [WebSocketRole.server, .client])
    func everyStateTimesEveryEvent(role: WebSocketRole) {
        var checked = 0
        for state in WebSocketConnection.State.allCases {
            for event in Event.allCases {
                guard var machine = Self.machine(role, in: state) else { continue }
                let key = "\(state) \(event.rawValue)"
                let expected = (role == .server ? Self.server : Self.client)[key] ?? Self.shared[key]
                #expect(expected != nil, "no table row for \(role) \(key)")
                #expect(Self.outcome(role, &machine, event) == expected, "\(role) \(key)")
                checked += 1
            }
        }
        #expect(checked == Event.allCases.count * (role == .server ? 3 : 4))
    }

    /// The table has no row that no (role, state, event) uses.
    @Test func tableHasNoStrayRows() {
        let events = Set(Event.allCases.map(\.rawValue))
        for key in Array(Self.shared.keys) + Array(Self.server.keys) + Array(Self.client.keys) {
            let parts = key.split(separator: " ")
            #expect(parts.count == 2 && events.contains(String(parts[1])), "stray row \(key)")
            #expect(WebSocketConnection.State.allCases.map { "\($0)" }.contains(String(parts[0])), "stray row \(key)")
        }
        #expect(Self.server.keys.allSatisfy { !$0.hasPrefix("awaitingEOF") })
    }
}
