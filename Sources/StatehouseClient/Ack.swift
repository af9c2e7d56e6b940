/// The server's acknowledgement of one action (docs/protocol.md, *Server → client*, `ack`).
public struct Ack: Sendable, Equatable {
    /// The store's version right after the action was reduced (unchanged if the action changed nothing).
    public var version: UInt64
    /// True when the server answered from its idempotency record: the action had been applied before (a retry after
    /// a lost connection), and was not applied again.
    public var replayed: Bool
    /// The idempotency key the action carried (generated when not given).
    public var id: String

    public init(version: UInt64, replayed: Bool, id: String) {
        self.version = version
        self.replayed = replayed
        self.id = id
    }
}
