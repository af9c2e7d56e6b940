import JSON
import StatehouseTestClients
import Testing

@testable import StatehouseClient

/// The client's `/ws` protocol state machine, event by event, in memory (no transport: the adapter and the real
/// server are covered by the integration tests).
struct ClientSessionTests {
    typealias Output = ClientSession.Output

    func makeSession(maxQueued: Int = 8) -> ClientSession {
        ClientSession(maxQueuedActions: maxQueued, backoff: Backoff(initialMs: 100, maxMs: 1_000),
                      random: SeededGenerator(seed: 7))
    }

    func texts(_ outputs: [Output]) -> [String] {
        outputs.compactMap { if case .write(let bytes) = $0 { String(decoding: bytes, as: UTF8.self) } else { nil } }
    }

    func live(_ session: inout ClientSession) -> [Output] {
        var outputs: [Output] = []
        session.start(into: &outputs)
        #expect(outputs == [.openTransport])
        outputs.removeAll()
        session.opened(into: &outputs)
        return outputs
    }

    func receive(_ session: inout ClientSession, _ text: String) -> [Output] {
        var outputs: [Output] = []
        session.received(Array(text.utf8), into: &outputs)
        return outputs
    }

    func count(_ n: Int) -> JSONValue { .object(JSONObject([("count", .number(JSONNumber(n)))])) }

    @Test func subscribesOnOpenAndReportsLive() {
        var session = makeSession()
        var outputs: [Output] = []
        let key = session.subscribe(store: "counter", path: nil, into: &outputs)
        #expect(outputs.isEmpty)
        outputs = live(&session)
        #expect(texts(outputs) == [#"{"type":"subscribe","id":"s\#(key)","store":"counter","format":"patch"}"#])
        #expect(outputs.last == .status(.live))
    }

    @Test func appliesPatchesInChainAndResyncsOnAGap() {
        var session = makeSession()
        var outputs: [Output] = []
        let key = session.subscribe(store: "counter", path: nil, into: &outputs)
        _ = live(&session)
        outputs = receive(&session, #"{"sub":"s1","type":"state","store":"counter","epoch":"e","version":3,"state":{"count":3}}"#)
        #expect(outputs == [.state(key: key, epoch: "e", version: 3, state: count(3), patch: nil)])
        outputs = receive(&session, #"{"sub":"s1","type":"patch","store":"counter","epoch":"e","version":4,"base":3,"ops":[{"op":"replace","path":"/count","value":4}]}"#)
        guard case .state(_, _, 4, let state, let patch?)? = outputs.first else {
            Issue.record("no state for version 4: \(outputs)")
            return
        }
        #expect(state == count(4))
        #expect(patch.count == 1)
        // A gap: base 6 while 4 is held → one resync, the patch is not applied, status resyncing.
        outputs = receive(&session, #"{"sub":"s1","type":"patch","store":"counter","epoch":"e","version":7,"base":6,"ops":[]}"#)
        #expect(texts(outputs) == [#"{"type":"resync","id":"s1"}"#])
        #expect(outputs.last == .status(.resyncing))
        outputs = receive(&session, #"{"sub":"s1","type":"patch","store":"counter","epoch":"e","version":8,"base":7,"ops":[]}"#)
        #expect(outputs.isEmpty, "patches are ignored until the snapshot")
        outputs = receive(&session, #"{"sub":"s1","type":"state","store":"counter","epoch":"e","version":8,"state":{"count":8}}"#)
        #expect(outputs == [.state(key: key, epoch: "e", version: 8, state: count(8), patch: nil), .status(.live)])
    }

    @Test func aPatchThatDoesNotApplyIsAGap() {
        var session = makeSession()
        var outputs: [Output] = []
        _ = session.subscribe(store: "counter", path: nil, into: &outputs)
        _ = live(&session)
        _ = receive(&session, #"{"sub":"s1","type":"state","store":"counter","epoch":"e","version":1,"state":{"count":1}}"#)
        outputs = receive(&session, #"{"sub":"s1","type":"patch","store":"counter","epoch":"e","version":2,"base":1,"ops":[{"op":"remove","path":"/missing"}]}"#)
        #expect(texts(outputs) == [#"{"type":"resync","id":"s1"}"#])
        #expect(session.subscriptions[1]?.state == count(1), "the last good state is kept")
    }

    @Test func neverGoesBackWithinAnEpochButTakesANewEpoch() {
        var session = makeSession()
        var outputs: [Output] = []
        let key = session.subscribe(store: "counter", path: nil, into: &outputs)
        _ = live(&session)
        _ = receive(&session, #"{"sub":"s1","type":"state","store":"counter","epoch":"e","version":5,"state":{"count":5}}"#)
        outputs = receive(&session, #"{"sub":"s1","type":"state","store":"counter","epoch":"e","version":4,"state":{"count":4}}"#)
        #expect(outputs.isEmpty)
        outputs = receive(&session, #"{"sub":"s1","type":"state","store":"counter","epoch":"f","version":0,"state":{"count":0}}"#)
        #expect(outputs == [.state(key: key, epoch: "f", version: 0, state: count(0), patch: nil)])
    }

    @Test func queuesOfflineActionsAndSendsThemInOrderAfterTheSubscriptions() {
        var session = makeSession()
        var outputs: [Output] = []
        _ = session.subscribe(store: "counter", path: nil, into: &outputs)
        let first = session.send(store: "counter", id: "k1", body: Array(#"{"type":"increment"}"#.utf8), settleTimeoutMs: nil, into: &outputs)
        let second = session.send(store: "counter", id: "k2", body: Array(#"{"type":"decrement"}"#.utf8), settleTimeoutMs: 500, into: &outputs)
        #expect(outputs.isEmpty, "nothing is written before the connection opens")
        outputs = live(&session)
        #expect(texts(outputs) == [
            #"{"type":"subscribe","id":"s1","store":"counter","format":"patch"}"#,
            #"{"type":"action","store":"counter","ref":"\#(first)","id":"k1","action":{"type":"increment"}}"#,
            #"{"type":"action","store":"counter","ref":"\#(second)","id":"k2","wait":"settled","timeout_ms":500,"action":{"type":"decrement"}}"#,
        ])
        outputs = receive(&session, #"{"type":"ack","ref":"\#(first)","version":1}"#)
        #expect(outputs == [.completed(seq: first, .success(Ack(version: 1, replayed: false, id: "k1")))])
        outputs = receive(&session, #"{"type":"error","ref":"\#(second)","code":"settle_timeout","message":"m","version":2}"#)
        #expect(outputs == [.completed(seq: second, .failure(.notSettled(code: "settle_timeout", message: "m", version: 2)))],
                "a settled action that timed out was applied: not a plain server error")
        #expect(session.pending.isEmpty)
    }

    @Test func aDropResendsUnackedActionsWithTheirIDsAndResumesFromTheVersionHeld() {
        var session = makeSession()
        var outputs: [Output] = []
        _ = session.subscribe(store: "counter", path: nil, into: &outputs)
        _ = live(&session)
        _ = receive(&session, #"{"sub":"s1","type":"state","store":"counter","epoch":"e","version":2,"state":{"count":2}}"#)
        let seq = session.send(store: "counter", id: "k1", body: Array(#"{"type":"increment"}"#.utf8), settleTimeoutMs: nil, into: &outputs)
        outputs.removeAll()
        session.ended(refusal: nil, into: &outputs)
        guard case .scheduleRetry(let ms)? = outputs.first else {
            Issue.record("no retry scheduled: \(outputs)")
            return
        }
        #expect((0...100).contains(ms), "the first reconnect after a working connection waits at most initialMs")
        #expect(outputs.last == .status(.offline))
        outputs.removeAll()
        session.retryTimerFired(into: &outputs)
        #expect(outputs == [.openTransport, .status(.connecting)])
        outputs.removeAll()
        session.opened(into: &outputs)
        #expect(texts(outputs) == [
            #"{"type":"subscribe","id":"s1","store":"counter","format":"patch","epoch":"e","since":2}"#,
            #"{"type":"action","store":"counter","ref":"\#(seq)","id":"k1","action":{"type":"increment"}}"#,
        ])
        outputs = receive(&session, #"{"type":"ack","ref":"\#(seq)","version":3,"replayed":true}"#)
        #expect(outputs == [.completed(seq: seq, .success(Ack(version: 3, replayed: true, id: "k1")))])
    }

    @Test func failedConnectsBackOffFurther() {
        var session = makeSession()
        var outputs: [Output] = []
        session.start(into: &outputs)
        var ceilings: [Int] = []
        for _ in 0..<6 {
            outputs.removeAll()
            session.ended(refusal: nil, into: &outputs)
            guard case .waiting(let attempt) = session.phase else { Issue.record("not waiting"); return }
            ceilings.append(Backoff(initialMs: 100, maxMs: 1_000).ceilingMs(attempt: attempt))
            session.retryTimerFired(into: &outputs)
        }
        #expect(ceilings == [200, 400, 800, 1_000, 1_000, 1_000])
    }

    @Test func connectionsThatCarryNothingBackOffFurther() {
        var session = makeSession()
        var outputs: [Output] = []
        session.start(into: &outputs)
        var attempts: [Int] = []
        for _ in 0..<4 {
            session.opened(into: &outputs)  // opens, then ends before any server message
            session.ended(refusal: nil, into: &outputs)
            guard case .waiting(let attempt) = session.phase else { Issue.record("not waiting"); return }
            attempts.append(attempt)
            session.retryTimerFired(into: &outputs)
        }
        #expect(attempts == [1, 2, 3, 4])
        session.opened(into: &outputs)
        session.received(Array(#"{"type":"unsubscribed","sub":"s9"}"#.utf8), into: &outputs)
        session.ended(refusal: nil, into: &outputs)
        #expect(session.phase == .waiting(attempt: 0), "a connection that worked starts the backoff over")
    }

    @Test func theQueueIsBounded() {
        var session = makeSession(maxQueued: 2)
        var outputs: [Output] = []
        _ = session.send(store: "c", id: "a", body: Array("{}".utf8), settleTimeoutMs: nil, into: &outputs)
        _ = session.send(store: "c", id: "b", body: Array("{}".utf8), settleTimeoutMs: nil, into: &outputs)
        let third = session.send(store: "c", id: "c", body: Array("{}".utf8), settleTimeoutMs: nil, into: &outputs)
        #expect(outputs == [.completed(seq: third, .failure(.queueFull(limit: 2)))])
    }

    @Test func refusedSubscriptionEndsWithTheServersError() {
        var session = makeSession()
        var outputs: [Output] = []
        let key = session.subscribe(store: "nope", path: nil, into: &outputs)
        _ = live(&session)
        outputs = receive(&session, #"{"sub":"s1","type":"error","code":"store_not_found","message":"No store."}"#)
        #expect(outputs == [.subscriptionFailed(key: key, .server(code: "store_not_found", message: "No store.", status: nil))])
        outputs.removeAll()
        session.ended(refusal: nil, into: &outputs)
        session.retryTimerFired(into: &outputs)
        outputs.removeAll()
        session.opened(into: &outputs)
        #expect(texts(outputs).isEmpty, "a refused subscription is not sent again")
    }

    /// Seen while writing the client fuzz target: `"s01"` and `"s+1"` named subscription s1, a `ref` of `"01"` or
    /// `"+1"` acked action 1 (integer parsing accepted them); only the exact ids the client wrote match.
    @Test func onlyTheExactSubscriptionIDsAndRefsTheClientWroteMatch() {
        var session = makeSession()
        var outputs: [Output] = []
        let key = session.subscribe(store: "counter", path: nil, into: &outputs)
        let seq = session.send(store: "counter", id: "k", body: Array("{}".utf8), settleTimeoutMs: nil, into: &outputs)
        _ = live(&session)
        for sub in ["s01", "s+1", "S1", "s1 "] {
            let text = #"{"sub":"\#(sub)","type":"state","epoch":"e","version":1,"state":{"count":1}}"#
            #expect(receive(&session, text).isEmpty, "\(sub) is not s1")
        }
        for ref in ["01", "+1", "1 ", "1.0"] {
            #expect(receive(&session, #"{"type":"ack","ref":"\#(ref)","version":1}"#).isEmpty, "\(ref) is not 1")
            #expect(receive(&session, #"{"type":"error","ref":"\#(ref)","code":"x","message":"y"}"#).isEmpty)
        }
        #expect(session.pending.map(\.seq) == [seq])
        outputs = receive(&session, #"{"sub":"s1","type":"state","epoch":"e","version":1,"state":{"count":1}}"#)
        #expect(outputs.first == .state(key: key, epoch: "e", version: 1, state: count(1), patch: nil))
        outputs = receive(&session, #"{"type":"ack","ref":"1","version":1}"#)
        #expect(outputs == [.completed(seq: seq, .success(Ack(version: 1, replayed: false, id: "k")))])
    }

    /// Found by the client fuzz target: an event for a subscription key not held (never made, or unsubscribed)
    /// was reported, though `unsubscribe` promises nothing more for its key.
    @Test func eventsAreReportedOnlyForSubscriptionsHeld() {
        var session = makeSession()
        var outputs: [Output] = []
        let key = session.subscribe(store: "counter", path: nil, into: &outputs)
        _ = live(&session)
        let event = #"{"type":"tick"}"#
        #expect(receive(&session, #"{"sub":"s0","type":"event","store":"x","event":\#(event)}"#).isEmpty)
        #expect(receive(&session, #"{"sub":"s1","type":"event","store":"counter","event":\#(event)}"#).count == 1)
        outputs.removeAll()
        session.unsubscribe(key: key, into: &outputs)
        #expect(receive(&session, #"{"sub":"s1","type":"event","store":"counter","event":\#(event)}"#).isEmpty)
    }

    @Test func anUnauthorizedHandshakeFailsWaitingActions() {
        var session = makeSession()
        var outputs: [Output] = []
        session.start(into: &outputs)
        let seq = session.send(store: "c", id: "a", body: Array("{}".utf8), settleTimeoutMs: nil, into: &outputs)
        outputs.removeAll()
        let refusal = ClientError.server(code: "unauthorized", message: "Send a token.", status: 401)
        session.ended(refusal: refusal, into: &outputs)
        #expect(outputs.first == .completed(seq: seq, .failure(refusal)))
        #expect(outputs.contains(.connectionRefused(refusal)), "first-snapshot waiters learn it too")
    }

    @Test func theAckTimeoutStartsAtTheFirstWriteOnly() {
        var session = makeSession()
        var outputs: [Output] = []
        let seq = session.send(store: "c", id: "a", body: Array("{}".utf8), settleTimeoutMs: 250, into: &outputs)
        #expect(outputs.isEmpty, "queued offline: not written, not timed")
        outputs = live(&session)
        #expect(outputs.contains(.armAckTimer(seq: seq, settleTimeoutMs: 250)))
        outputs.removeAll()
        session.ended(refusal: nil, into: &outputs)
        session.retryTimerFired(into: &outputs)
        outputs.removeAll()
        session.opened(into: &outputs)
        #expect(texts(outputs).count == 1, "written again after the reconnect")
        #expect(!outputs.contains(.armAckTimer(seq: seq, settleTimeoutMs: 250)), "its timeout keeps running from the first write")
    }

    @Test func closeFailsEverythingWaiting() {
        var session = makeSession()
        var outputs: [Output] = []
        let key = session.subscribe(store: "counter", path: nil, into: &outputs)
        _ = live(&session)
        let seq = session.send(store: "counter", id: "k", body: Array("{}".utf8), settleTimeoutMs: nil, into: &outputs)
        outputs.removeAll()
        session.close(into: &outputs)
        #expect(outputs == [
            .completed(seq: seq, .failure(.closed)), .subscriptionFailed(key: key, .closed), .closeTransport,
            .status(.closed),
        ])
    }

    @Test func backoffStaysWithinItsCeilings() {
        let backoff = Backoff(initialMs: 50, maxMs: 3_000)
        var generator = SeededGenerator(seed: 1)
        for attempt in 0..<40 {
            let ceiling = backoff.ceilingMs(attempt: attempt)
            #expect(ceiling == min(3_000, 50 << min(attempt, 20)))
            for _ in 0..<20 { #expect((0...ceiling).contains(backoff.delayMs(attempt: attempt, using: &generator))) }
        }
    }
}

