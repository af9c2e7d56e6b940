import Locking

/// The contexts of all of a server's event loops, so a request on one loop can ask every loop for its figures
/// (`GET /metrics`).
///
/// Held weakly: each context holds the directory, so strong references would keep a stopped server's contexts (and
/// their loops) alive for ever.
///
/// ## Thread safety
/// Sendable: a lock around the list, filled once by the server's init and read by any loop.
final class LoopDirectory: Sendable {
    private struct Entry: @unchecked Sendable { weak var context: ServerContext? }
    private let entries = Locked<[Entry]>([])

    /// Records the server's contexts, in loop order.
    func fill(_ contexts: [ServerContext]) { entries.withLock { $0 = contexts.map { Entry(context: $0) } } }

    /// The contexts still alive, in loop order.
    var contexts: [ServerContext] { entries.withLock { $0.compactMap(\.context) } }
}
