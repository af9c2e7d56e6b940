import JSON

/// The stream messages built for a store's newest version, kept until the next version is recorded, so every
/// subscriber that needs the same message gets the same bytes: snapshots (joiners, resyncs, failed resumes) and
/// catch-up patches (subscribers that fell behind and drained, typically all from the same version); and the ops of
/// `GET ?since=` answers, by base version.
///
/// Without it, 100 subscribers of a 5 MB state that drain after a change each built their own patch (a rebuild and a
/// diff each) or their own 5 MB snapshot.
///
/// ## Thread safety
/// Not locked itself: ``StoreFanout`` owns it and uses it under its lock.
struct StreamMessageCache {
    /// A snapshot: the (projected) newest state, with its `resumed` flag.
    struct SnapshotKey: Hashable {
        var path: JSONPointer?
        var resumed: Bool?
    }

    /// A catch-up from `base` (of the current epoch) to the newest, for one channel.
    struct CatchUpKey: Hashable {
        var channel: StreamChannel
        var base: UInt64
    }

    /// At most this many catch-ups (and as many `?since=` patches) are kept per version (then the cache starts again):
    /// distinct bases are few.
    static let maxCatchUps = 32

    private var snapshots: [SnapshotKey: StreamMessage] = [:]
    /// nil: nothing to send (the projection did not change since `base`).
    private var catchUps: [CatchUpKey: StreamMessage?] = [:]
    /// RFC 6902 ops from a base version (of the current epoch) to the newest state.
    private var patches: [UInt64: [UInt8]] = [:]

    /// A new version was recorded: every message kept is out of date.
    mutating func removeAll() {
        if !snapshots.isEmpty { snapshots = [:] }
        if !catchUps.isEmpty { catchUps = [:] }
        if !patches.isEmpty { patches = [:] }
    }

    /// The snapshot kept for `key`, if any.
    func snapshot(_ key: SnapshotKey) -> StreamMessage? { snapshots[key] }

    mutating func keep(_ message: StreamMessage, for key: SnapshotKey) { snapshots[key] = message }

    /// The catch-up kept for `key`: nil when none is, `.some(nil)` when there is nothing to send.
    func catchUp(_ key: CatchUpKey) -> StreamMessage?? { catchUps[key] }

    mutating func keep(_ message: StreamMessage?, for key: CatchUpKey) {
        if catchUps.count >= Self.maxCatchUps { catchUps = [:] }
        catchUps[key] = .some(message)
    }

    /// The ops kept from `base` to the newest, if any.
    func patch(from base: UInt64) -> [UInt8]? { patches[base] }

    mutating func keep(_ ops: [UInt8], from base: UInt64) {
        if patches.count >= Self.maxCatchUps { patches = [:] }
        patches[base] = ops
    }
}
