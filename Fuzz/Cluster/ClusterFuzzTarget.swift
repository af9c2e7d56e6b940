// libFuzzer target for what a cluster node reads from Redis (docs/cluster.md), linked with StatehouseServer and
// DemoReducers by scripts/fuzz. No Redis runs: the readers are fed the bytes.
//
// Input: byte 0 picks the mode (its value mod 6; in mode 5, bit 3 picks the reducer), the rest is the bytes:
// - 0, a pub/sub message on a node's inbox (ClusterMessage: a forward or an answer);
// - 1, a message on a store's changes channel read as committed rows (ClusterChanges);
// - 2, the same read as an effect's event (ClusterEvent);
// - 3, a channel name read as a store's changes channel (StoreKeys.store(changesChannel:));
// - 4, RESP bytes as Redis sends them, parsed by hiredis's reader into RedisReply values (the Redis module's own
//   conversion), each reply read as an XRANGE of the journal (ClusteredStore.rows), an HMGET of the snapshot
//   (ClusteredStore.snapshot), an HGETALL of the idempotency keys (ClusteredStore.storedKeys) and the acquire
//   function's answer (ClusteredStore.acquireAnswer);
// - 5, RESP bytes: an HMGET of the snapshot and an XRANGE of the journal, from which the node builds its view of a
//   store as at start (TypedStore.recovered, for Counter or TodoList).
//
// Checked: nothing traps; what parses re-encodes (with the encoder the node itself writes with: `encoded`, the
// commit function's arguments, the replies' RESP shape) to bytes or replies that parse back equal; a changes
// message's rows lie within its bytes; a channel name read back names the same channel; a view that cannot be built
// fails with a one-line RecoveryError, and one that is built is at the newest row's version (or the snapshot's) with
// a state that re-encodes to JSON that decodes back equal.

import Foundation
import CHiredis
import DemoReducers
import Statehouse
import JSON
import JSONCoding
@testable import Redis
@testable import StatehouseServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCluster(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 6 {
    case 0: checkMessage(bytes)
    case 1: checkChanges(bytes)
    case 2: checkEvent(bytes)
    case 3: checkChannel(bytes)
    case 4: for reply in replies(bytes) { checkReply(reply) }
    default:
        if data[0] & 8 == 0 { checkView(TodoList.self, bytes) } else { checkView(Counter.self, bytes) }
    }
    return 0
}

private func checkMessage(_ bytes: [UInt8]) {
    guard let message = ClusterMessage(bytes) else { return }
    let encoded = message.encoded
    guard let again = ClusterMessage(encoded) else {
        return fuzzCheck(false, "a message's encoding does not parse: \(fuzzShow(encoded))")
    }
    fuzzCheck(again.encoded == encoded, "a message changed on a round trip: \(fuzzShow(encoded))")
    switch (message, again) {
    case (.forward(let a), .forward(let b)):
        fuzzCheck(a.actions == b.actions && a.from == b.from && a.store == b.store && a.ref == b.ref && a.key == b.key
                  && a.fingerprint == b.fingerprint && a.reset == b.reset && a.settleTimeoutMs == b.settleTimeoutMs,
                  "a forward changed on a round trip: \(fuzzShow(encoded))")
        if let ms = a.settleTimeoutMs { fuzzCheck((0...ActionWait.maxTimeoutMs).contains(ms), "settle timeout \(ms)") }
    case (.answer(let refA, let a), .answer(let refB, let b)):
        fuzzCheck(refA == refB, "an answer's ref changed")
        switch (a, b) {
        case (.reduced(let x, let tx, let rx), .reduced(let y, let ty, let ry)):
            fuzzCheck(x.version == y.version && x.state == y.state && tx == ty && rx == ry, "a reduced answer changed")
        case (.refused(let sx, let cx, let mx), .refused(let sy, let cy, let my)):
            fuzzCheck(sx == sy && cx == cy && mx == my, "a refusal changed")
            fuzzCheck((400...599).contains(sx), "a refusal with status \(sx)")
        case (.moved, .moved): break
        default: fuzzCheck(false, "an answer changed kind: \(fuzzShow(encoded))")
        }
    default:
        fuzzCheck(false, "a message changed kind: \(fuzzShow(encoded))")
    }
}

private func checkChanges(_ bytes: [UInt8]) {
    guard let changes = ClusterChanges(bytes) else { return }
    fuzzCheck(changes.rows.reduce(0) { $0 + $1.action.count } <= bytes.count, "rows longer than the message")
    let encoded = changes.encoded
    guard let again = ClusterChanges(encoded) else {
        return fuzzCheck(false, "a changes message's encoding does not parse: \(fuzzShow(encoded))")
    }
    fuzzCheck(again.lease == changes.lease && again.token == changes.token, "lease or token changed")
    fuzzCheck(again.rows.count == changes.rows.count, "the row count changed")
    for (a, b) in zip(changes.rows, again.rows) {
        fuzzCheck(a.version == b.version && a.origin == b.origin && a.action == b.action, "a row changed: \(fuzzShow(encoded))")
    }
    fuzzCheck(again.encoded == encoded, "the encoding is not a fixed point")
}

private func checkEvent(_ bytes: [UInt8]) {
    guard let event = ClusterEvent(bytes) else { return }
    fuzzCheck((try? JSONValue(parsing: event.fsa))?.objectValue != nil, "an event that is not a JSON object")
    let encoded = event.encoded
    guard let again = ClusterEvent(encoded) else {
        return fuzzCheck(false, "an event's encoding does not parse: \(fuzzShow(encoded))")
    }
    fuzzCheck(again.lease == event.lease && again.fsa == event.fsa, "an event changed on a round trip")
    // A changes message is never read as an event, nor an event as committed rows.
    fuzzCheck(ClusterChanges(encoded) == nil, "an event reads as committed rows: \(fuzzShow(encoded))")
}

private func checkChannel(_ bytes: [UInt8]) {
    guard let name = StoreKeys.store(changesChannel: bytes) else { return }
    if String(validating: bytes, as: UTF8.self) != nil {
        fuzzCheck(StoreKeys(name).changes == bytes, "channel \(fuzzShow(bytes)) read as store \(name.debugDescription)")
    }
}

/// The replies hiredis's reader makes of `bytes` (at most 16; it stops at the first protocol error). Input with an
/// array header over 4,096 elements is not fed: hiredis 0.14 allocates an array's elements as it reads the header,
/// without a limit (the Redis server is trusted; these readers never see such a reply from it).
private func replies(_ bytes: [UInt8]) -> [RedisReply] {
    var index = 0
    while let star = bytes[index...].firstIndex(of: UInt8(ascii: "*")) {
        let digits = bytes[(star + 1)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        if digits.count > 4 || (Int(String(decoding: digits, as: UTF8.self)) ?? 0) > 4_096 { return [] }
        index = star + 1
    }
    guard let reader = redisReaderCreate() else { return [] }
    defer { redisReaderFree(reader) }
    let fed = bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { redisReaderFeed(reader, $0.baseAddress, $0.count) }
    }
    guard fed == REDIS_OK else { return [] }
    var out: [RedisReply] = []
    while out.count < 16 {
        var raw: UnsafeMutableRawPointer?
        guard redisReaderGetReply(reader, &raw) == REDIS_OK, let raw else { break }
        out.append(RedisConnection.reply(raw.assumingMemoryBound(to: redisReply.self)))
        freeReplyObject(raw)
    }
    return out
}

private typealias CounterStore = ClusteredStore<Counter>

private func bulk(_ text: String) -> RedisReply { .bulk(Array(text.utf8)) }

private func checkReply(_ reply: RedisReply) {
    // The journal, as XRANGE gives it back: `VERSION-0` and fields o, a, t, ms (ClusterFunctions.commit).
    let rows = CounterStore.rows(reply)
    let entries = RedisReply.array(rows.map { row in
        .array([bulk("\(row.version)-0"), .array([
            bulk("o"), bulk(row.origin.name), bulk("a"), .bulk(row.action), bulk("t"), bulk("1"),
            bulk("ms"), bulk("\(row.timeMs)"),
        ])])
    })
    fuzzCheck(CounterStore.rows(entries) == rows, "journal rows changed on a round trip: \(rows)")

    if let snapshot = CounterStore.snapshot(reply) {
        let again = CounterStore.snapshot(.array([bulk("\(snapshot.version)"), .bulk(snapshot.state)]))
        fuzzCheck(again == snapshot, "a snapshot changed on a round trip: \(snapshot)")
    }

    // The keys, as the commit function stores them (commitCommand): key → FINGERPRINT:VERSION:EXPIRES_MS:STATE.
    let keys = CounterStore.storedKeys(reply)
    let hash = RedisReply.array(keys.flatMap { key in
        [bulk(key.key), .bulk(Array("\(key.fingerprint):\(key.version):\(key.expiresMs):".utf8) + key.state)]
    })
    fuzzCheck(CounterStore.storedKeys(hash) == keys, "idempotency keys changed on a round trip: \(keys)")

    switch CounterStore.acquireAnswer(reply) {
    case .granted(let token, let version)?:
        fuzzCheck(CounterStore.acquireAnswer(.array([.integer(1), .integer(token), .integer(Int64(version))]))
                  == .granted(token: token, version: version), "a granted lease changed on a round trip")
    case .held(let holder, let pttl)?:
        fuzzCheck(CounterStore.acquireAnswer(.array([.integer(0), holder.map(bulk) ?? .null, .integer(pttl)]))
                  == .held(holder: holder, pttlMs: pttl), "a held lease changed on a round trip")
    case nil:
        break
    }
}

/// A node's view of a store at start: the snapshot (or the initial state) and the journal past it, replayed.
private func checkView<R: ServableReducer>(_ type: R.Type, _ bytes: [UInt8]) {
    let got = replies(bytes)
    guard got.count >= 2 else { return }
    let base = ClusteredStore<R>.snapshot(got[0]) ?? StoredSnapshot(version: 0, state: TypedStore<R>.encode(R.initialState))
    let rows = ClusteredStore<R>.rows(got[1]).filter { $0.version > base.version }
    let view: Snapshot<R.State>
    do {
        view = try TypedStore<R>.recovered(name: "fuzz", base: base, rows: rows, historySize: 3, epoch: "e").snapshot
    } catch {
        let line = error.description
        return fuzzCheck(!line.isEmpty && !line.contains(where: \.isNewline), "not one line: \(line)")
    }
    fuzzCheck(view.version == (rows.last?.version ?? base.version), "the view is at \(view.version)")
    let json = TypedStore<R>.encode(view.state)
    guard let back = try? JSONValueDecoder().decode(R.State.self, from: json) else {
        return fuzzCheck(false, "the view's state does not decode: \(fuzzShow(json))")
    }
    fuzzCheck(TypedStore<R>.encode(back) == json, "the view's state changed on a round trip: \(fuzzShow(json))")
}
