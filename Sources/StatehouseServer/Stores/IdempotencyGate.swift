import JSON
import UVLoop

/// The one path of an action sent with an idempotency key, for both transports: HTTP `POST /stores/{name}/actions`
/// with `Idempotency-Key`, and WebSocket `{"type":"action","id":…}` (docs/protocol.md, *Idempotent actions*).
///
/// 1. ``begin(key:field:fingerprint:store:on:waiter:)`` checks the key (1 to ``maxKeyBytes`` printable ASCII characters, else 400
///    `invalid_idempotency_key`) and looks it up in the store's ``IdempotencyCache``: a new key runs (with the note a
///    durable store journals beside the action); a key whose action is still running waits for its outcome; a
///    finished one replays it; a key used for a different action is 422 `idempotency_key_reused`.
/// 2. The transport submits a new key's action, answers its outcome, then calls ``complete(with:)``: that records
///    the outcome (a failure — not applied — forgets the key, so a retry runs it) and gives the duplicates that
///    waited the same outcome.
///
/// An action's identity is its `type` and `payload` as JSON values (``StableFingerprint/combine(action:)``), the
/// same on both transports, so a key sent over HTTP and retried over WebSocket (or the other way) names the same
/// action; on HTTP each action of a batch counts, in order; on both, so does `wait=settled` with its timeout.
///
/// ## Thread safety
/// A value; ``complete(with:)`` runs on the loop the key began on (the cache is Sendable).
struct IdempotencyGate: Sendable {
    /// The longest key taken, in bytes (a key is kept in memory and on disk for its TTL).
    static let maxKeyBytes = 255

    /// Keys are printable ASCII, U+0020 to U+007E, compared byte for byte. Not any string: Swift compares strings by
    /// canonical equivalence (`"é"` and `"e\u{301}"` are equal) and a header's invalid UTF-8 reads as U+FFFD, so two
    /// different keys could name one action and the second would be answered as a replay, never applied.
    static func isKeyByte(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) }

    let key: String
    let cache: IdempotencyCache

    /// What to do with a keyed action.
    enum Start {
        /// A new key: submit the action (with `note`), answer its outcome, then call ``complete(with:)``.
        case run(IdempotencyGate, note: IdempotencyNote?)
        /// The key's first action is still running: the waiter will be called (on this loop) with its outcome.
        case waiting
        /// The key's first action finished: answer with this outcome again, marked as a replay.
        case replay(IdempotencyCache.Outcome)
        /// Not applied: answer with this error (400 `invalid_idempotency_key`, 422 `idempotency_key_reused`).
        case refused(APIError)
    }

    /// Whether `key` is a usable idempotency key: 1 to ``maxKeyBytes`` printable ASCII characters (space to `~`).
    static func isValidKey(_ key: String) -> Bool {
        (1...maxKeyBytes).contains(key.utf8.count) && key.utf8.allSatisfy(isKeyByte)
    }

    /// Looks `key` up for an action whose identity is `fingerprint`.
    ///
    /// - Parameters:
    ///   - field: How the transport names the key, for messages: `Idempotency-Key` or `id`.
    ///   - waiter: Called on `loop` with the first action's outcome, only when the answer is ``Start/waiting``.
    static func begin(
        key: String, field: String, fingerprint: UInt64, store: HostedStore, on loop: EventLoop,
        waiter: @escaping (IdempotencyCache.Outcome) -> Void
    ) -> Start {
        guard isValidKey(key) else {
            return .refused(.invalidIdempotencyKey(field: field, maxBytes: maxKeyBytes))
        }
        let cache = store.idempotency  // only keyed actions make a store's cache
        switch cache.begin(key, fingerprint: fingerprint, on: loop, waiter: waiter) {
        case .new:
            return .run(
                IdempotencyGate(key: key, cache: cache), note: IdempotencyNote.forDurable(store, key: key, fingerprint: fingerprint))
        case .waiting: return .waiting
        case .replay(let outcome): return .replay(outcome)
        case .conflict: return .refused(.idempotencyKeyReused(field: field))
        }
    }

    /// Records the outcome of the key's action (after its own answer) and answers the duplicates that waited.
    func complete(with outcome: IdempotencyCache.Outcome) {
        cache.complete(key, with: outcome)
    }
}

extension StableFingerprint {
    /// Adds an action's identity: its `type` and `payload` as JSON values (keys sorted, no whitespace; `meta` and
    /// member order do not count).
    mutating func combine(action: JSONValue) {
        combine((action.objectValue?["type"] ?? .null).serialized(sortedKeys: true))
        combine((action.objectValue?["payload"] ?? .null).serialized(sortedKeys: true))
    }

    /// Adds a wait: `wait=settled` with its timeout counts; the default (answer once reduced) adds nothing.
    mutating func combine(wait: ActionWait) {
        if case .settled(let timeout) = wait { combine(Array("wait=settled;timeout=\(timeout)".utf8)) }
    }

    /// The identity of one WebSocket `action` message: its `action` (the same as a `POST` of that one action) and its
    /// wait (`"wait":"settled"` with its `timeout_ms`, the same as the `POST`'s query).
    static func of(action: JSONValue, wait: ActionWait) -> UInt64 {
        var hasher = StableFingerprint()
        hasher.combine(action: action)
        hasher.combine(wait: wait)
        return hasher.value
    }

    /// The identity of a `POST …/actions`: its body (one action — the same as ``of(action:)`` — or an array, each
    /// action in order) and its wait (`wait=settled` with its timeout).
    static func of(post body: [UInt8], wait: ActionWait) -> UInt64 {
        var hasher = StableFingerprint()
        let value = try? JSONValue(parsing: body)  // valid: the store prepared the action from it already
        if case .array(let actions)? = value {
            hasher.combine([UInt8(ascii: "[")])
            for action in actions { hasher.combine(action: action) }
        } else {
            hasher.combine(action: value ?? .null)
        }
        hasher.combine(wait: wait)
        return hasher.value
    }
}
