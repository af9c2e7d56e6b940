import DemoReducers
import Redis
import UVLoop
@testable import StatehouseServer
import Testing

/// The messages nodes exchange over Redis pub/sub (docs/cluster.md): each kind round-trips byte for byte, and what is
/// not one (garbage published into a channel by hand) reads as nil, never as a wrong message.
@Suite struct ClusterMessagesTests {
    @Test func forwardsAndAnswersRoundTrip() throws {
        var forward = ClusterMessage.Forward(from: "n2", ref: 42, store: "c\"1")
        forward.actions = Array(#"[{"type":"add","payload":{"text":"a\nb"}}]"#.utf8)
        forward.key = "k 1"
        forward.fingerprint = .max
        forward.settleTimeoutMs = 250
        guard case .forward(let read)? = ClusterMessage(ClusterMessage.forward(forward).encoded) else {
            Issue.record("not a forward")
            return
        }
        #expect(read.from == "n2" && read.ref == 42 && read.store == "c\"1" && read.actions == forward.actions)
        #expect(read.key == "k 1" && read.fingerprint == .max && read.settleTimeoutMs == 250 && !read.reset)

        let state = Array("{\"count\":3}\n\u{0}".utf8)
        let reduced = ClusterMessage.answer(ref: 7, .reduced(StateReply(version: 3, state: state), timedOut: true, replayed: false))
        guard case .answer(7, .reduced(let reply, true, false))? = ClusterMessage(reduced.encoded) else {
            Issue.record("not a reduced answer")
            return
        }
        #expect(reply.version == 3 && reply.state == state)
        let refused = ClusterMessage.answer(ref: 8, .refused(status: 422, code: "idempotency_key_reused", message: "no \"way\""))
        guard case .answer(8, .refused(422, "idempotency_key_reused", "no \"way\""))? = ClusterMessage(refused.encoded) else {
            Issue.record("not a refusal")
            return
        }
        guard case .answer(9, .moved)? = ClusterMessage(ClusterMessage.answer(ref: 9, .moved).encoded) else {
            Issue.record("not moved")
            return
        }
    }

    @Test func changesRoundTripWithTheirActionsBytes() throws {
        let rows = [
            ClusterRow(version: 5, origin: .external, action: Array(#"{"increment":{}}"#.utf8)),
            ClusterRow(version: 6, origin: .effect, action: Array("{\"add\":{\"amount\":1}}\n".utf8)),
            ClusterRow(version: 7, origin: .reset, action: Array(#"{"count":0}"#.utf8)),
        ]
        let read = try #require(ClusterChanges(ClusterChanges(lease: "n1:4", token: 4, rows: rows).encoded))
        #expect(read.lease == "n1:4" && read.token == 4)
        #expect(read.rows.map(\.version) == [5, 6, 7] && read.rows.map(\.origin) == [.external, .effect, .reset])
        #expect(read.rows.map(\.action) == rows.map(\.action))
    }

    @Test func eventsRoundTripAndAreNotChanges() throws {
        let fsa = Array(#"{"type":"selected","payload":"kiwi"}"#.utf8)
        let encoded = ClusterEvent(lease: "n1:2", fsa: fsa).encoded
        let read = try #require(ClusterEvent(encoded))
        #expect(read.lease == "n1:2" && read.fsa == fsa)
        #expect(ClusterChanges(encoded) == nil)
        #expect(ClusterEvent(ClusterChanges(lease: "n1:2", token: 2, rows: []).encoded) == nil)
        #expect(ClusterEvent(Array("{\"e\":true,\"l\":\"n1:2\"}\nnot json".utf8)) == nil)
    }

    @Test func garbageIsNoMessage() {
        for text in [
            "", "hello", "{}\n", "{\"op\":\"forward\"}\n", "{\"op\":\"answer\",\"ref\":-1}\n", "[1,2]\nxx",
            "{\"op\":\"forward\",\"from\":1,\"ref\":1,\"store\":\"a\"}\n",
        ] {
            #expect(ClusterMessage(Array(text.utf8)) == nil, "\(text)")
        }
        for text in [
            "", "{\"l\":\"n1:1\",\"t\":1,\"rows\":[[1,\"external\",99]]}\n{}", "{\"l\":\"n1:1\",\"t\":1,\"rows\":[[1,\"nope\",2]]}\n{}",
            "{\"t\":1,\"rows\":[]}\n", "{\"l\":\"n1:1\",\"t\":1,\"rows\":[[1,\"external\",-1]]}\n",
        ] {
            #expect(ClusterChanges(Array(text.utf8)) == nil, "\(text)")
        }
    }
}

/// A cluster node restoring the keys Redis holds when it takes a store (issue 19's doubled-key bug: 68,000 restored
/// keys pushed a key answered a moment before out of a 10,000-key cache, and its retry was applied again).
@Suite struct IdempotencyRestoreTests {
    @Test func restoredKeysAreForgottenBeforeTheKeysAnsweredHere() throws {
        let loop = try EventLoop()
        defer { loop.stop() }
        let cache = IdempotencyCache(capacity: 3, ttl: .seconds(600))
        let answered = { (_: IdempotencyCache.Outcome) in }
        guard case .new = cache.begin("here", fingerprint: 1, on: loop, waiter: answered) else {
            Issue.record("a new key is new")
            return
        }
        cache.complete("here", with: .reduced(StateReply(version: 9, state: Array("{}".utf8))))
        let nowMs = StorageClock.nowMs
        let restored = (0..<5).map { index in
            StoredKey(
                key: "old\(index)", fingerprint: 2, version: UInt64(index + 1), state: Array("{}".utf8),
                expiresMs: nowMs + 1_000 * Int64(100 + index))
        }
        cache.restoreMissing(restored.shuffled(), nowMs: nowMs)
        guard case .replay(.reduced(let reply)) = cache.begin("here", fingerprint: 1, on: loop, waiter: answered) else {
            Issue.record("the key answered here was forgotten for restored ones")
            return
        }
        #expect(reply.version == 9)
        // Of the restored keys the latest to expire stay (two fit beside the one answered here).
        // (Kept ones first: a lookup of a forgotten key begins it anew, which changes what the table holds.)
        for (key, kept) in [("old4", true), ("old3", true), ("old2", false), ("old0", false)] {
            let lookup = cache.begin(key, fingerprint: 2, on: loop, waiter: answered)
            if case .replay = lookup { #expect(kept, "\(key) kept") } else { #expect(!kept, "\(key) forgotten") }
        }
    }

    /// Found with the `cluster` fuzz target (its seeds `changes-length-huge`, `changes-version-negative`,
    /// `answer-refused-*` and `forward-settle-*` trap or break a check before the fix): a row length near Int.max
    /// overflowed the bounds check and a negative version trapped its conversion; a refusal's status went into the HTTP
    /// status line as it came; a settle timeout was taken as it came; a negative version in a snapshot or acquire
    /// reply (read inline before, now by `snapshot(_:)` and `acquireAnswer(_:)`) trapped.
    @Test func valuesOutOfRangeAreNotMessagesNorTrap() throws {
        let huge = Array(#"{"l":"a:1","t":1,"rows":[[1,"external",9223372036854775807]]}"#.utf8) + [0x0A, 0x78]
        #expect(ClusterChanges(huge) == nil)
        let negative = Array(#"{"l":"a:1","t":1,"rows":[[-1,"external",1]]}"#.utf8) + [0x0A, 0x78]
        #expect(ClusterChanges(negative) == nil)
        #expect(ClusterMessage(Array("{\"op\":\"answer\",\"ref\":7,\"status\":99999,\"code\":\"x\"}\n".utf8)) == nil)
        let settle = Array("{\"op\":\"forward\",\"from\":\"a\",\"ref\":1,\"store\":\"s\",\"settleMs\":9223372036854775807}\n".utf8)
        guard case .forward(let forward)? = ClusterMessage(settle) else {
            Issue.record("not a forward")
            return
        }
        #expect(forward.settleTimeoutMs == ActionWait.maxTimeoutMs)
        #expect(ClusteredStore<Counter>.snapshot(.array([.bulk(Array("-1".utf8)), .bulk(Array("{}".utf8))])) == nil)
        #expect(ClusteredStore<Counter>.snapshot(.array([.bulk(Array("5".utf8))])) == nil)
        #expect(ClusteredStore<Counter>.acquireAnswer(.array([.integer(1), .integer(2), .integer(-1)])) == nil)
        #expect(ClusteredStore<Counter>.acquireAnswer(.array([.integer(0), .null, .integer(.max)]))
                == .held(holder: nil, pttlMs: .max))
    }
}
