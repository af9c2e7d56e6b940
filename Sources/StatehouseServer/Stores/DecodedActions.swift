import Foundation  // memcmp
import Locking
import Statehouse

/// The actions a reducer type's stores have decoded, kept for reuse (one per reducer type of a catalog, shared by its
/// stores): by FSA `type` for actions without payload (``PayloadlessActions``, used by every decoder), and by the
/// exact bytes of small `POST …/actions` bodies holding one action.
///
/// A client that posts the same body again (a button's action, a script's `increment`) then costs one table lookup:
/// no JSON parse and no `Codable` pass (`scripts/check-hot-path`: about 3,100 instructions less per `POST` of
/// `{"type":"increment"}`, BENCHMARKS.md "HTTP path (issue 18)"). This relies on an action's decoding being a pure
/// function of its JSON, as ``ServableReducer`` requires (and ``PayloadlessActions`` already does). Only bodies of
/// at most ``maxBodyBytes`` bytes that decoded to one action are kept; when ``capacity`` bodies are kept the table
/// starts again, so a client sending ever new bodies costs a few lookups and inserts, not memory.
///
/// ## Thread safety
/// Sendable: the table is behind a lock (actions are decoded on whichever event loop read them).
final class DecodedActions<Action: Sendable>: Sendable {
    /// The largest body kept, in bytes.
    static var maxBodyBytes: Int { 256 }
    /// The most bodies kept before the table starts again.
    static var capacity: Int { 256 }

    /// Actions without payload, by FSA type (also for WebSocket messages and batches).
    let payloadless = PayloadlessActions<Action>()
    private let bodies = Locked<[Body: Action]>([:])

    init() {}

    /// The action a previous body with exactly these bytes decoded to, if kept.
    func action(body: [UInt8]) -> Action? {
        guard body.count <= Self.maxBodyBytes else { return nil }
        return bodies.withLock { $0[Body(bytes: body)] }
    }

    /// Keeps `action` as what `body` (one action, not a batch) decodes to.
    func keep(_ action: Action, body: [UInt8]) {
        guard body.count <= Self.maxBodyBytes else { return }
        bodies.withLock { bodies in
            if bodies.count >= Self.capacity { bodies.removeAll(keepingCapacity: true) }
            bodies[Body(bytes: body)] = action
        }
    }

    /// A body as a table key, hashed in one call over its bytes (an array of bytes hashes byte by byte: callgrind,
    /// about 420 instructions for a 20-byte body, against 150; compared with `memcmp`, not byte by byte).
    private struct Body: Hashable {
        let bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }

        static func == (lhs: Body, rhs: Body) -> Bool {
            lhs.bytes.count == rhs.bytes.count
                && lhs.bytes.withUnsafeBytes { left in
                    rhs.bytes.withUnsafeBytes { right in
                        left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
                    }
                }
        }
    }
}
