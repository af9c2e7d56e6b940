import HTTP1

/// In-memory driving of ``HTTPServerConnection``: events in, every action out (``nextAction()`` until nil).

typealias Machine = HTTPServerConnection
typealias Action = HTTPServerConnection.Action

let machineConfiguration = HTTPServerConnection.Configuration(
    maxQueuedRequests: 4, idleTimeoutMs: 5_000, headTimeoutMs: 1_000, bodyTimeoutMs: 2_000)

func hostFields(_ extra: [HTTPField] = []) -> HTTPFields {
    HTTPFields([HTTPField(name: "Host", value: "example.test")] + extra)
}

func getRequest(_ path: String = "/", keepAlive: Bool = true, method: String = "GET", host: Bool = true) -> HTTPRequest {
    HTTPRequest(method: method, target: path, fields: host ? hostFields() : HTTPFields(), keepAlive: keepAlive)
}

let upgradeRequest = HTTPRequest(
    method: "GET", target: "/ws",
    fields: hostFields([HTTPField(name: "Connection", value: "Upgrade"), HTTPField(name: "Upgrade", value: "websocket")]),
    isUpgrade: true)
let malformed = HTTPParseFailure(status: 400, code: "bad_request", message: "malformed")

/// Every event the machine takes, for the state × event table.
enum MachineEvent: CaseIterable, Sendable {
    case request, upgrade, failure, continueExpected, partialHead, partialBody, requestWithoutHost, headWithoutHost
    case respondKeepAlive, respondClose, handedOff, writesPaused, writesResumed
    case idleTimer, headTimer, bodyTimer, inputEnded, inputEndedMidRequest, shutDown


    /// Applies the event; returns what ``HTTPServerConnection/responseStarted(keepAlive:)`` said (for the respond
    /// events) and the actions that follow.
    func apply(to machine: inout Machine) -> (framing: Bool??, actions: [Action]) {
        var framing: Bool?? = .none
        switch self {
        case .request: machine.received(.request(getRequest("/next")))
        case .upgrade: machine.received(.upgrade(upgradeRequest, leftover: [0x81]))
        case .failure: machine.received(.failure(malformed))
        case .continueExpected: machine.received(.continueExpected, position: .inBody)
        case .partialHead: feed("GET /a HTTP/1.1\r\nHo", to: &machine)
        case .partialBody: feed("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab", to: &machine)
        case .requestWithoutHost: machine.received(.request(getRequest(host: false)))
        case .headWithoutHost: machine.received(.request(getRequest(method: "HEAD", host: false)))
        case .respondKeepAlive: framing = .some(machine.responseStarted(keepAlive: true))
        case .respondClose: framing = .some(machine.responseStarted(keepAlive: false))
        case .handedOff: machine.handedOff()
        case .writesPaused: machine.writesPaused()
        case .writesResumed: machine.writesResumed()
        case .idleTimer: machine.timerFired(.idle)
        case .headTimer: machine.timerFired(.head)
        case .bodyTimer: machine.timerFired(.body)
        case .inputEnded: machine.inputEnded([])
        case .inputEndedMidRequest: machine.inputEnded([.failure(malformed)])
        case .shutDown: machine.shutDown()
        }
        return (framing, drain(&machine))
    }

    /// Bytes that complete no request, through a fresh parser (only the input position changes).
    private func feed(_ text: String, to machine: inout Machine) {
        let parser = HTTPRequestParser(limits: roomyLimits)
        Array(text.utf8).withUnsafeBytes { machine.received($0, parser: parser) }
    }
}

/// Every action until there is none (at most 100: a machine that never stops is a failure, not a hang).
func drain(_ machine: inout Machine) -> [Action] {
    var actions: [Action] = []
    while actions.count < 100, let action = machine.nextAction() { actions.append(action) }
    return actions
}

/// A machine in `state`, reached the usual way, with its actions so far drained.
func machine(in state: Machine.State) -> Machine {
    var machine = Machine(configuration: machineConfiguration)
    _ = drain(&machine)  // arms the idle timeout
    switch state {
    case .idle: break
    case .responding:
        machine.received(.request(getRequest()))
        _ = drain(&machine)
    case .closing:
        machine.received(.request(getRequest()))
        _ = drain(&machine)
        _ = machine.responseStarted(keepAlive: false)
        _ = drain(&machine)
    case .handedOff:
        machine.received(.upgrade(upgradeRequest, leftover: []))
        _ = drain(&machine)
        machine.handedOff()
        _ = drain(&machine)
    }
    return machine
}
