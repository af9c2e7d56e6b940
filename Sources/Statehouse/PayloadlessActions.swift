import Synchronization
import Locking

/// Decoded actions that carry no payload, by FSA `type`.
///
/// An FSA without `payload` (or with `"payload":null`) shows the action's decoding nothing but its type, so each such
/// type is decoded once and the value reused (one table per reducer type of a catalog, shared by its stores):
/// `{"type":"increment"}` then costs a table lookup instead of a pass through `Codable`. This relies on an action's
/// decoding being a pure function of its JSON, as ``ServableReducer`` requires. At most ``capacity`` types are kept (a custom `init(from:)` may accept any type
/// name); later ones are decoded every time.
///
/// ## Thread safety
/// Sendable: the table is behind a lock (actions are decoded on whichever event loop read them).
package final class PayloadlessActions<Action: Sendable>: Sendable {
    /// The most types kept.
    static var capacity: Int { 64 }

    /// Actions as `any Sendable`, so the lock's type is concrete: this class runs unspecialized (its caller,
    /// `FluxStandardAction.decode`, is generic), and a `Locked` of a generic type costs a metadata look-up per access
    /// there (callgrind: about 700 instructions per action more than this cast).
    private let table = Locked<[String: any Sendable]>([:])

    package init() {}

    /// The action of FSA type `type` without payload: the kept one, or `decode()`'s, kept when it succeeds.
    /// - Throws: what `decode` throws (failures are not kept).
    package func action(type: String, decode: () throws -> Action) rethrows -> Action {
        if let known = table.withLock({ $0[type] }) as? Action { return known }
        let action = try decode()
        table.withLock { table in
            if table.count < Self.capacity { table[type] = action }
        }
        return action
    }
}
