package import JSON

/// The client's side of the `/ws` protocol (docs/protocol.md) as a pure value: subscriptions, their states and version
/// chains, actions awaiting acks, reconnects. No I/O, no timers, no clock: ``ClientConnection`` feeds it events and
/// carries out the ``Output``s it returns, in order.
///
/// Lifecycle (``Phase``):
/// ```
///  idle ──start()──▶ connecting ──opened()──▶ live
///                      ▲   │                   │
///     retryTimerFired()│   └─ended(_:)─┐       │ ended(_:)
///                      │               ▼       ▼
///                      └──────────── waiting (backoff timer) 
///  any ──close()──▶ closed
/// ```
/// On every `opened()` it sends, in order: one `subscribe` per store (with `epoch` and `since` when it holds a state,
/// so the server answers with one patch, nothing, or a snapshot marked `"resumed":false`), then every action not yet
/// acknowledged, oldest first, each with the idempotency `id` it was first sent with: an action whose ack was lost
/// with a connection is answered from the server's record (`replayed`), not applied twice.
///
/// States: a `state` message replaces a store's state unless it is older than the one held (same epoch, lower
/// version); a `patch` applies only when its `base` is the version held in the same epoch, else the store asks for a
/// snapshot (`resync`) and ignores patches until it comes. A patch that fails to apply is a gap too. So a store
/// never holds a state that the server did not have at that version.
///
/// ## Thread safety
/// A value type; its owner (``ClientConnection``) uses it on its event loop's thread only.
package struct ClientSession: Sendable {
    package enum Phase: Sendable, Equatable {
        case idle
        /// The transport is opening; `attempt` counts failed connects since the last working connection.
        case connecting(attempt: Int)
        case live
        /// Waiting for the backoff timer before connecting again.
        case waiting(attempt: Int)
        case closed
    }

    /// One store this client watches, under the subscription id `"s<key>"`.
    package struct Subscription: Sendable {
        package let store: String
        package let path: String?
        package var epoch: String?
        package var version: UInt64?
        package var state: JSONValue?
        /// A `resync` was sent; patches are ignored until a `state` comes.
        package var resyncing = false
        /// The server refused it (`store_not_found`, `forbidden`, deleted): not sent again.
        package var failure: ClientError?
    }

    /// An action awaiting its ack.
    package struct PendingAction: Sendable {
        package let seq: UInt64
        package let store: String
        package let id: String
        /// The action as an FSA JSON object.
        package let body: [UInt8]
        /// `wait=settled` with this timeout (ms), or nil for a plain ack.
        package let settleTimeoutMs: Int?
        /// Written at least once: its ack timeout runs (it starts at the first write, not while it waits offline).
        package var armed = false
    }

    /// What the owner must do, in order.
    package enum Output: Sendable, Equatable {
        /// Start a new transport (TCP connect + handshake to `/ws`).
        case openTransport
        /// Send one text message on the open transport.
        case write([UInt8])
        /// Close the transport politely (1000).
        case closeTransport
        /// Fire ``ClientSession/retryTimerFired()`` after this many ms.
        case scheduleRetry(ms: Int)
        /// The connection status changed.
        case status(ConnectionStatus)
        /// A store reached a new state. `patch` holds the ops that led there from the store's previous state when
        /// it came as a patch (nil for a snapshot).
        case state(key: Int, epoch: String, version: UInt64, state: JSONValue, patch: [JSONPatchOperation]?)
        /// An event the store's reducer emitted.
        case event(key: Int, JSONValue)
        /// The subscription ended for good (refused, or the store deleted).
        case subscriptionFailed(key: Int, ClientError)
        /// The server refused the connection itself (a 4xx but 408 and 429 at the handshake): whoever waits for a first snapshot
        /// learns why now; the subscriptions stay and are sent again on the next connection.
        case connectionRefused(ClientError)
        /// `seq` was written for the first time: its ack timeout starts (plus `settleTimeoutMs` for a settled one).
        case armAckTimer(seq: UInt64, settleTimeoutMs: Int?)
        /// An action's outcome; `seq` is what ``send(store:id:body:settleTimeoutMs:)`` returned.
        case completed(seq: UInt64, Result<Ack, ClientError>)
    }

    package internal(set) var phase: Phase = .idle
    package internal(set) var subscriptions: [Int: Subscription] = [:]
    /// Oldest first. While `live` every one of them has been written on the current connection; otherwise none has
    /// (they go out, in this order, when the next connection opens).
    package internal(set) var pending: [PendingAction] = []
    /// The status last reported.
    package internal(set) var status: ConnectionStatus = .connecting
    let maxQueuedActions: Int
    let backoff: Backoff
    var random: any RandomNumberGenerator & Sendable
    var nextKey = 1
    var nextSeq: UInt64 = 1
    /// Whether the current connection carried a server message (then the backoff starts over).
    var heardFromServer = false
    /// The failed attempts before the current connection opened.
    var openedAfterAttempts = 0

    /// - Parameters:
    ///   - maxQueuedActions: how many actions may await their ack at once (≥ 1).
    ///   - backoff: reconnect delays.
    ///   - random: where jitter comes from (seed it in tests).
    package init(
        maxQueuedActions: Int, backoff: Backoff,
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        self.maxQueuedActions = max(maxQueuedActions, 1)
        self.backoff = backoff
        self.random = random
    }

    /// The subscription id on the wire for `key`.
    static func subscriptionID(_ key: Int) -> String { "s\(key)" }

    /// The status that follows from the phase and the subscriptions; appended when it changed.
    mutating func reportStatus(into outputs: inout [Output]) {
        let now: ConnectionStatus
        switch phase {
        case .idle, .connecting: now = .connecting
        case .waiting: now = .offline
        case .closed: now = .closed
        case .live: now = subscriptions.values.contains { $0.resyncing && $0.failure == nil } ? .resyncing : .live
        }
        guard now != status else { return }
        status = now
        outputs.append(.status(now))
    }
}
