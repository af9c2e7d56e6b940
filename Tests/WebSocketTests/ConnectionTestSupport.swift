import WebSocket

typealias Action = WebSocketConnection.Action

/// Keep-alive settings of the in-memory tests: ping after 100 ms of silence, drop 50 ms after the ping.
let testLiveness = WebSocketConnection.Liveness(pingIntervalMs: 100, pongTimeoutMs: 50, pingPayload: Array("hi".utf8))

/// A fresh open machine with liveness started at t = 0 (its one action, arming the keep-alive, is checked and dropped).
func openMachine(_ role: WebSocketRole, maxMessageBytes: Int = 1 << 20, liveness: Bool = true) -> WebSocketConnection {
    var machine = WebSocketConnection(
        role: role,
        configuration: .init(maxMessageBytes: maxMessageBytes, closeTimeoutMs: 1000, liveness: liveness ? testLiveness : nil),
        maskingKeys: .fixed(1, 2, 3, 4))
    var actions: [Action] = []
    machine.startLiveness(now: 0, into: &actions)
    precondition(actions == (liveness ? [.armTimer(.keepAlive, milliseconds: 100)] : []))
    return machine
}

/// A frame as the peer of `role` sends it: masked when we are the server, unmasked when we are the client (§5.1).
func peerFrame(to role: WebSocketRole, _ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
    WebSocketFrameEncoder.frame(opcode: opcode, payload: payload, fin: fin, maskingKey: role == .server ? rfcKey : nil)
}

/// A frame breaking the masking rule for `role`: unmasked to a server, masked to a client.
func badPeerFrame(to role: WebSocketRole) -> [UInt8] {
    WebSocketFrameEncoder.frame(opcode: .text, payload: utf8("x"), maskingKey: role == .client ? rfcKey : nil)
}

extension WebSocketConnection {
    /// Feeds `bytes` the way an adapter does (again and again until all are consumed) and returns every action.
    mutating func feed(_ bytes: [UInt8], now: UInt64 = 0) -> [Action] {
        var all: [Action] = []
        bytes.withUnsafeBytes { raw in
            var offset = 0
            repeat {
                read(raw, from: &offset, now: now, into: &all)
            } while offset < raw.count
        }
        return all
    }

    /// One `read` call from `offset`: the actions of that call only.
    mutating func readOnce(_ bytes: [UInt8], from offset: inout Int, now: UInt64 = 0) -> [Action] {
        var actions: [Action] = []
        bytes.withUnsafeBytes { read($0, from: &offset, now: now, into: &actions) }
        return actions
    }

    /// Runs one event and returns its actions.
    mutating func run(_ event: (inout WebSocketConnection, inout [Action]) -> Void) -> [Action] {
        var actions: [Action] = []
        event(&self, &actions)
        return actions
    }
}

/// What a frame we wrote says, read by the peer's reader (which also checks our masking: a server's reader rejects
/// an unmasked frame, a client's a masked one): "ping", "pong", "close 1000", "close", "text hi", or "invalid …".
func describeFrame(_ frame: [UInt8], from role: WebSocketRole) -> String {
    var peer = WebSocketReader(role: role == .server ? .client : .server, maxMessageBytes: 1 << 20)
    let result = peer.read(frame)
    if let failure = result.failure { return "invalid \(failure.closeCode.rawValue)" }
    guard result.messages.count == 1 else { return "frames \(result.messages.count)" }
    switch result.messages[0] {
    case .text(let text): return "text \(text)"
    case .binary(let bytes): return "binary \(bytes.count)"
    case .ping: return "ping"
    case .pong: return "pong"
    case .close(let code?, _): return "close \(code)"
    case .close(nil, _): return "close"
    }
}

/// A short description of an action, for the table test: "write pong", "deliver text", "close afterWrites", ….
func describe(_ action: Action, from role: WebSocketRole) -> String {
    switch action {
    case .write(let frame): return "write " + describeFrame(frame, from: role)
    case .deliver(.text): return "deliver text"
    case .deliver(.binary): return "deliver binary"
    case .resumeReading: return "resumeReading"
    case .armTimer(let timer, let ms): return "arm \(timer) \(ms)"
    case .cancelTimer(let timer): return "cancel \(timer)"
    case .close(let afterWrites, _): return afterWrites ? "close afterWrites" : "close now"
    }
}
