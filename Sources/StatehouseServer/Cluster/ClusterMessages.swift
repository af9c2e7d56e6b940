import JSON

/// What nodes say to each other over Redis pub/sub (docs/cluster.md, *Forwarding*): a header of compact JSON, a
/// line feed, then raw bytes (actions, a state) whose lengths the header gives, so no state is parsed twice.
enum ClusterMessage: Sendable {
    /// A node that does not own `store` asks its owner to apply `actions` (a JSON array of Flux Standard Actions,
    /// enqueued in order; the answer concerns the last), or to reset it (`actions` empty, `reset` true).
    case forward(Forward)
    /// The owner's answer to the forward `ref` of the node that sent it.
    case answer(ref: UInt64, Answer)

    struct Forward: Sendable {
        var from: String
        var ref: UInt64
        var store: String
        var reset = false
        var actions: [UInt8] = []
        /// The idempotency key and the action's fingerprint (``IdempotencyGate``), when it had one.
        var key: String?
        var fingerprint: UInt64 = 0
        /// `wait=settled` with this timeout, ms; nil: answer once reduced.
        var settleTimeoutMs: Int?
    }

    enum Answer: Sendable {
        case reduced(StateReply, timedOut: Bool, replayed: Bool)
        case refused(status: Int, code: String, message: String)
        /// The node does not own the store (any more): ask again who does.
        case moved
    }

    /// The bytes to `PUBLISH`.
    var encoded: [UInt8] {
        switch self {
        case .forward(let forward):
            var header = "{\"op\":\"forward\",\"from\":\(JSONText.quoted(forward.from)),\"ref\":\(forward.ref),"
                + "\"store\":\(JSONText.quoted(forward.store)),\"reset\":\(forward.reset),\"fp\":\"\(forward.fingerprint)\""
            if let key = forward.key { header += ",\"key\":\(JSONText.quoted(key))" }
            if let timeout = forward.settleTimeoutMs { header += ",\"settleMs\":\(timeout)" }
            return Array((header + "}\n").utf8) + forward.actions
        case .answer(let ref, .reduced(let reply, let timedOut, let replayed)):
            let header = "{\"op\":\"answer\",\"ref\":\(ref),\"version\":\(reply.version),\"timedOut\":\(timedOut),"
                + "\"replayed\":\(replayed)}\n"
            return Array(header.utf8) + reply.state
        case .answer(let ref, .refused(let status, let code, let message)):
            return Array(("{\"op\":\"answer\",\"ref\":\(ref),\"status\":\(status),\"code\":\(JSONText.quoted(code)),"
                + "\"message\":\(JSONText.quoted(message))}\n").utf8)
        case .answer(let ref, .moved):
            return Array("{\"op\":\"answer\",\"ref\":\(ref),\"moved\":true}\n".utf8)
        }
    }

    /// Reads a message; nil when it is not one (a node of another release: ignored), or when a refusal's status is not
    /// 400...599. A settle timeout is clamped to 0...``ActionWait/maxTimeoutMs``.
    init?(_ bytes: [UInt8]) {
        guard let newline = bytes.firstIndex(of: 0x0A),
            let header = try? JSONValue(parsing: Array(bytes[..<newline])).objectValue,
            let op = header["op"]?.stringValue, let ref = header.uint64("ref")
        else { return nil }
        let body = Array(bytes[(newline + 1)...])
        switch op {
        case "forward":
            guard let from = header["from"]?.stringValue, let store = header["store"]?.stringValue else { return nil }
            var forward = Forward(from: from, ref: ref, store: store)
            forward.reset = header["reset"] == .bool(true)
            forward.actions = body
            forward.key = header["key"]?.stringValue
            forward.fingerprint = header["fp"]?.stringValue.flatMap { UInt64($0) } ?? 0
            // Clamped to what a client may ask for (ActionWait.maxTimeoutMs).
            forward.settleTimeoutMs = header["settleMs"]?.numberValue?.intValue.map { min(max($0, 0), ActionWait.maxTimeoutMs) }
            self = .forward(forward)
        case "answer":
            if header["moved"] == .bool(true) {
                self = .answer(ref: ref, .moved)
            } else if let status = header["status"]?.numberValue?.intValue {
                guard (400...599).contains(status) else { return nil }  // a refusal is an HTTP error status
                self = .answer(
                    ref: ref,
                    .refused(
                        status: status, code: header["code"]?.stringValue ?? "internal_error",
                        message: header["message"]?.stringValue ?? ""))
            } else {
                guard let version = header.uint64("version") else { return nil }
                self = .answer(
                    ref: ref,
                    .reduced(
                        StateReply(version: version, state: body), timedOut: header["timedOut"] == .bool(true),
                        replayed: header["replayed"] == .bool(true)))
            }
        default:
            return nil
        }
    }
}

/// What the owner publishes on a store's `changes` channel with each commit: the rows committed, so that every
/// other node's view of the store follows without reading the stream (it reads it only to fill a gap).
struct ClusterChanges: Sendable {
    /// The writer's lease value, `NODE:TOKEN`: other nodes learn the owner from it (and forward to it).
    var lease: String
    /// The fencing token of the writer.
    var token: Int64
    /// The rows, versions ascending by 1.
    var rows: [ClusterRow]

    var encoded: [UInt8] {
        var header = "{\"l\":\(JSONText.quoted(lease)),\"t\":\(token),\"rows\":["
        for (index, row) in rows.enumerated() {
            header += (index == 0 ? "" : ",") + "[\(row.version),\"\(row.origin.name)\",\(row.action.count)]"
        }
        var bytes = Array((header + "]}\n").utf8)
        for row in rows { bytes += row.action }
        return bytes
    }

    init(lease: String, token: Int64, rows: [ClusterRow]) {
        self.lease = lease
        self.token = token
        self.rows = rows
    }

    init?(_ bytes: [UInt8]) {
        guard let newline = bytes.firstIndex(of: 0x0A),
            let header = try? JSONValue(parsing: Array(bytes[..<newline])).objectValue,
            let lease = header["l"]?.stringValue, let token = header["t"]?.numberValue?.intValue,
            case .array(let entries)? = header["rows"]
        else { return nil }
        var at = newline + 1
        var rows: [ClusterRow] = []
        for entry in entries {
            guard case .array(let parts) = entry, parts.count == 3,
                let version = parts[0].numberValue?.intValue, version >= 0, let originName = parts[1].stringValue,
                let origin = JournalOrigin(name: originName), let length = parts[2].numberValue?.intValue,
                length >= 0, length <= bytes.count - at
            else { return nil }
            rows.append(ClusterRow(version: UInt64(version), origin: origin, action: Array(bytes[at..<at + length])))
            at += length
        }
        self.lease = lease
        self.token = Int64(token)
        self.rows = rows
    }
}

/// An event an effect of the owner's store emitted (its Flux Standard Action), published on the store's `changes`
/// channel after the commit it follows (the committer's connection: Redis keeps their order), so subscribers on every
/// node get it, in stream order, as the owner's own do.
struct ClusterEvent: Sendable {
    /// The owner's lease value, `NODE:TOKEN`.
    var lease: String
    /// The event as JSON (`{"type":…,"payload":…}`).
    var fsa: [UInt8]

    var encoded: [UInt8] { Array("{\"e\":true,\"l\":\(JSONText.quoted(lease))}\n".utf8) + fsa }

    init(lease: String, fsa: [UInt8]) {
        self.lease = lease
        self.fsa = fsa
    }

    init?(_ bytes: [UInt8]) {
        guard let newline = bytes.firstIndex(of: 0x0A),
            let header = try? JSONValue(parsing: Array(bytes[..<newline])).objectValue, header["e"] == .bool(true),
            let lease = header["l"]?.stringValue
        else { return nil }
        let fsa = Array(bytes[(newline + 1)...])
        guard (try? JSONValue(parsing: fsa))?.objectValue != nil else { return nil }
        self.lease = lease
        self.fsa = fsa
    }
}

/// One committed change: the version it made, its origin and its action's JSON (a reset's: the state it restored).
struct ClusterRow: Sendable {
    let version: UInt64
    let origin: JournalOrigin
    let action: [UInt8]
}

extension JSONObject {
    /// A non-negative integer member.
    fileprivate func uint64(_ key: String) -> UInt64? {
        guard let int = self[key]?.numberValue?.intValue, int >= 0 else { return nil }
        return UInt64(int)
    }
}
