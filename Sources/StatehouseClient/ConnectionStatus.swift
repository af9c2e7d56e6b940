/// Where a client's connection to its server is (``RemoteServer/status``, ``RemoteServer/statuses()``).
///
/// ```
///  connecting ──open──▶ live ◀──snapshot──▶ resyncing (a store saw a gap in its version chain)
///      ▲                 │
///      └──backoff timer── offline ◀──connection lost / refused
///  any ──close()──▶ closed
/// ```
public enum ConnectionStatus: String, Sendable, Equatable, CaseIterable {
    /// Opening the TCP connection and the WebSocket handshake.
    case connecting
    /// The WebSocket is open: subscriptions were (re)sent, actions flow.
    case live
    /// Open, but at least one store found a gap (a patch whose `base` is not its version) and waits for the snapshot
    /// it asked for; it shows no wrong state meanwhile, only the last good one.
    case resyncing
    /// Not connected; a reconnect is scheduled (exponential backoff with full jitter). Actions queue meanwhile.
    case offline
    /// ``RemoteServer/close()`` was called; nothing more happens.
    case closed
}
