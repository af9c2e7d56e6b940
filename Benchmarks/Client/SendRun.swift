import DemoReducers
import StatehouseClient
import Synchronization
import UVLoop

/// Send throughput: how many `increment` actions one client gets acknowledged per second with `window` in flight.
enum SendRun {
    /// `window` tasks share the work, each awaiting `store.send(.increment)` in turn until `total` actions are acked
    /// or `seconds` passed (checked before each send).
    /// - Returns: the actions acked and the time it took, ns.
    /// - Throws: ``BenchError`` with the client's error.
    static func remote(store: RemoteStore<Counter>, window: Int, total: Int, seconds: Double)
        async throws(BenchError) -> (count: Int, elapsedNs: UInt64)
    {
        let tickets = Tickets()
        let start = nowNs
        let deadline = start + UInt64(seconds * 1e9)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<window {
                    group.addTask {
                        while tickets.take(below: total), nowNs < deadline {
                            try await store.send(.increment)
                            tickets.acked()
                        }
                    }
                }
                try await group.waitForAll()
            }
        } catch {
            throw BenchError("RemoteStore.send failed: \(error)")
        }
        return (tickets.ackedCount, nowNs - start)
    }

    /// The same with a ``RawClient`` (subscribed, as the ``RemoteStore`` is): `window` action messages written at
    /// once, and one more for each ack, until `total` are acked or `seconds` passed.
    static func raw(client: RawClient, window: Int, total: Int, seconds: Double)
        async throws(BenchError) -> (count: Int, elapsedNs: UInt64)
    {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<(Int, UInt64), BenchError>, Never>) in
            client.loop.execute {
                RawSender(client: client, window: window, total: total, seconds: seconds) {
                    continuation.resume(returning: $0)
                }.start()
            }
        }
        let (count, elapsed) = try result.get()
        return (count, elapsed)
    }
}

/// Counts the actions the tasks of ``SendRun/remote(store:window:total:seconds:)`` take and get acked.
///
/// ## Thread safety
/// Thread-safe: atomics only.
private final class Tickets: Sendable {
    private let taken = Atomic<Int>(0)
    private let done = Atomic<Int>(0)

    /// Takes one action to send, unless `total` were taken.
    func take(below total: Int) -> Bool {
        taken.add(1, ordering: .relaxed).newValue <= total
    }

    func acked() { done.add(1, ordering: .relaxed) }

    var ackedCount: Int { done.load(ordering: .relaxed) }
}

/// The raw client's sending loop: keeps `window` actions unacknowledged, one `ref` per action (a counter), an `id`
/// made of a run tag and the `ref` (so every action carries an idempotency key, as ``RemoteStore/send(_:id:)`` does).
///
/// Lifecycle: `sending` (acks arrive, each sends one more while under `total` and before the deadline) → `draining`
/// (no more sends; the rest of the acks arrive) → `done` (`completion` called once, also on a failure).
///
/// ## Thread safety
/// Loop-confined to the client's loop.
private final class RawSender {
    private let client: RawClient
    private let window: Int
    private let total: Int
    private let deadlineNs: UInt64
    private let startNs = nowNs
    private let tag = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    private var sent = 0
    private var acked = 0
    private var completion: ((Result<(Int, UInt64), BenchError>) -> Void)?

    init(client: RawClient, window: Int, total: Int, seconds: Double,
         completion: @escaping (Result<(Int, UInt64), BenchError>) -> Void) {
        self.client = client
        self.window = window
        self.total = total
        deadlineNs = startNs + UInt64(seconds * 1e9)
        self.completion = completion
    }

    func start() {
        client.onMessage = { [self] object, _ in
            guard object["type"]?.stringValue == "ack" else { return }
            acked += 1
            if sent < total, nowNs < deadlineNs {
                sendOne()
            } else if acked == sent {
                finish(.success((acked, nowNs - startNs)))
            }
        }
        client.onFailure = { [self] error in finish(.failure(error)) }
        while sent < min(window, total) { sendOne() }
    }

    private func sendOne() {
        sent += 1
        client.sendIncrement(ref: sent, tag: tag)
    }

    private func finish(_ result: Result<(Int, UInt64), BenchError>) {
        client.onMessage = nil
        client.onFailure = nil
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }
}
