/// An idempotency key as it travels with its action into a durable store's journal batch (a `Store` note): written
/// in the same transaction as the action, so a key is never durable without its action, nor an action without its key.
///
/// ## Thread safety
/// Immutable.
final class IdempotencyNote: Sendable {
    let key: String
    let fingerprint: UInt64
    /// When the key is forgotten, ms since 1970.
    let expiresMs: Int64

    init(key: String, fingerprint: UInt64, expiresMs: Int64) {
        self.key = key
        self.fingerprint = fingerprint
        self.expiresMs = expiresMs
    }

    /// The note of a new key for `store` when it is durable or of a cluster (nil otherwise: only a journal reads notes).
    static func forDurable(_ store: HostedStore, key: String, fingerprint: UInt64) -> IdempotencyNote? {
        guard let ttlSeconds = store.keyTtlSeconds else { return nil }
        let ttlMs = Int64(ttlSeconds) * 1_000
        return IdempotencyNote(key: key, fingerprint: fingerprint, expiresMs: StorageClock.nowMs + ttlMs)
    }
}

/// A 64-bit FNV-1a hash: the identity of a keyed action, stable across processes (a key's fingerprint is stored
/// with it, and a retry after a restart must match; Swift's `Hasher` is seeded per process).
struct StableFingerprint {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        // A separator, so ("ab", "c") and ("a", "bc") differ.
        value ^= 0xff
        value = value &* 0x0000_0100_0000_01b3
    }
}
