import HTTP1
import Testing

/// Every state × every event of ``HTTPServerConnection``, in memory: the actions that follow and the state after.
@Suite struct ServerConnectionTableTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let state: Machine.State
        let event: MachineEvent
        let actions: [Action]
        let after: Machine.State
        /// What responseStarted answered (respond events only).
        var framing: Bool?? = .none
        var testDescription: String { "\(state) + \(event)" }
    }

    static let idleRows: [Row] = [
        Row(state: .idle, event: .request, actions: [.deliver(getRequest("/next"))], after: .responding),
        Row(state: .idle, event: .upgrade, actions: [.upgrade(upgradeRequest, leftover: [0x81])], after: .responding),
        Row(state: .idle, event: .failure, actions: [.refuse(malformed, headOnly: false)], after: .responding),
        Row(state: .idle, event: .continueExpected, actions: [.sendContinue, .armTimer(.body, milliseconds: 2_000)], after: .idle),
        Row(state: .idle, event: .partialHead, actions: [.armTimer(.head, milliseconds: 1_000)], after: .idle),
        Row(state: .idle, event: .partialBody, actions: [.armTimer(.body, milliseconds: 2_000)], after: .idle),
        Row(state: .idle, event: .requestWithoutHost, actions: [.refuse(.invalidHost, headOnly: false)], after: .responding),
        Row(state: .idle, event: .headWithoutHost, actions: [.refuse(.invalidHost, headOnly: true)], after: .responding),
        Row(state: .idle, event: .respondKeepAlive, actions: [], after: .idle, framing: .some(nil)),
        Row(state: .idle, event: .respondClose, actions: [], after: .idle, framing: .some(nil)),
        Row(state: .idle, event: .handedOff, actions: [], after: .idle),
        Row(state: .idle, event: .writesPaused, actions: [.pauseReading], after: .idle),
        Row(state: .idle, event: .writesResumed, actions: [], after: .idle),
        Row(state: .idle, event: .idleTimer, actions: [.close(.immediately)], after: .closing),
        Row(state: .idle, event: .headTimer, actions: [], after: .idle),
        Row(state: .idle, event: .bodyTimer, actions: [], after: .idle),
        Row(state: .idle, event: .inputEnded, actions: [.close(.whenWritten)], after: .closing),
        Row(state: .idle, event: .inputEndedMidRequest, actions: [.refuse(malformed, headOnly: false)], after: .responding),
        Row(state: .idle, event: .shutDown, actions: [.close(.immediately)], after: .closing),
    ]

    static let respondingRows: [Row] = [
        Row(state: .responding, event: .request, actions: [], after: .responding),
        Row(state: .responding, event: .upgrade, actions: [], after: .responding),
        Row(state: .responding, event: .failure, actions: [], after: .responding),
        Row(state: .responding, event: .continueExpected, actions: [], after: .responding),
        Row(state: .responding, event: .partialHead, actions: [], after: .responding),
        Row(state: .responding, event: .partialBody, actions: [], after: .responding),
        Row(state: .responding, event: .requestWithoutHost, actions: [], after: .responding),
        Row(state: .responding, event: .headWithoutHost, actions: [], after: .responding),
        Row(state: .responding, event: .respondKeepAlive, actions: [.armTimer(.idle, milliseconds: 5_000)], after: .idle, framing: .some(true)),
        Row(state: .responding, event: .respondClose, actions: [], after: .closing, framing: .some(false)),
        Row(state: .responding, event: .handedOff, actions: [], after: .handedOff),
        Row(state: .responding, event: .writesPaused, actions: [], after: .responding),
        Row(state: .responding, event: .writesResumed, actions: [], after: .responding),
        Row(state: .responding, event: .idleTimer, actions: [], after: .responding),
        Row(state: .responding, event: .headTimer, actions: [], after: .responding),
        Row(state: .responding, event: .bodyTimer, actions: [], after: .responding),
        Row(state: .responding, event: .inputEnded, actions: [], after: .responding),
        Row(state: .responding, event: .inputEndedMidRequest, actions: [], after: .responding),
        Row(state: .responding, event: .shutDown, actions: [], after: .responding),
    ]

    /// Closing and handed off are final: every event is ignored.
    static let finalRows: [Row] = [Machine.State.closing, .handedOff].flatMap { state in
        MachineEvent.allCases.map { event in
            let responds = event == .respondKeepAlive || event == .respondClose
            return Row(state: state, event: event, actions: [], after: state, framing: responds ? .some(nil) : .none)
        }
    }

    @Test func theTableCoversEveryStateAndEvent() {
        let rows = Self.idleRows + Self.respondingRows + Self.finalRows
        for state in [Machine.State.idle, .responding, .closing, .handedOff] {
            for event in MachineEvent.allCases {
                #expect(rows.filter { $0.state == state && $0.event == event }.count == 1, "\(state) + \(event)")
            }
        }
    }

    @Test(arguments: idleRows + respondingRows + finalRows)
    func row(_ row: Row) {
        var connection = machine(in: row.state)
        #expect(connection.state == row.state)
        let (framing, actions) = row.event.apply(to: &connection)
        #expect(actions == row.actions)
        #expect(connection.state == row.after)
        #expect(framing == row.framing)
    }
}
