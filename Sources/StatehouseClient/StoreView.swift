import JSON
import JSONCoding
import Locking
import Statehouse

/// What a ``RemoteStore`` shows: its newest snapshot, decoded from the JSON its subscription holds, and who watches it.
/// The connection delivers into it (``SubscriptionSink``); the store and its callers read it from any thread.
///
/// It holds no reference to its store or server, so dropping a ``RemoteStore`` releases it (its `deinit`
/// unsubscribes).
///
/// ## Thread safety
/// Thread-safe: state behind one `Locked`; deliveries come from the connection's loop thread, one at a time, so
/// observers are called in version order.
final class StoreView<R: ServableReducer>: SubscriptionSink {
    typealias Waiter = CheckedContinuation<Snapshot<R.State>, any Error>

    struct Watchers {
        var snapshot: Snapshot<R.State>?
        var epoch: String?
        var ending: ClientError?
        /// Why the newest state could not be shown (it did not decode), until a state that does arrives.
        var decodingFailure: ClientError?
        var key: Int?
        var nextToken: UInt64 = 0
        var observers: [UInt64: @Sendable (Snapshot<R.State>) -> Void] = [:]
        var streams: [UInt64: AsyncStream<Snapshot<R.State>>.Continuation] = [:]
        /// Each events stream: what takes an event's JSON, and what finishes the stream.
        var eventWatchers: [UInt64: (deliver: @Sendable (JSONValue) -> Void, finish: @Sendable () -> Void)] = [:]
        var firstWaiters: [Waiter] = []

        /// Who waits for the first snapshot, handed over once: the list is empty afterwards.
        mutating func takeFirstWaiters() -> [Waiter] {
            defer { firstWaiters.removeAll() }
            return firstWaiters
        }

        mutating func token() -> UInt64 {
            nextToken += 1
            return nextToken
        }
    }
    let watchers = Locked(Watchers())
    let name: String

    init(name: String) { self.name = name }

    func deliver(epoch: String, version: UInt64, state: JSONValue, patch: [JSONPatchOperation]?) {
        let decoded: R.State
        do {
            decoded = try JSONValueDecoder().decode(R.State.self, from: state)
        } catch {
            // The server's state is not this reducer's: keep the last good one; waiters learn why.
            let failure = ClientError.decoding(
                "The state of store \"\(name)\" at version \(version) does not decode as \(R.State.self): \(error). Check that the server hosts it with \(R.self).")
            let waiters = watchers.withLock { watchers in
                watchers.decodingFailure = failure
                return watchers.takeFirstWaiters()
            }
            for waiter in waiters { waiter.resume(throwing: failure) }
            return
        }
        let snapshot = Snapshot(version: version, state: decoded)
        let (observers, waiters) = watchers.withLock { watchers in
            watchers.snapshot = snapshot
            watchers.epoch = epoch
            watchers.decodingFailure = nil
            for stream in watchers.streams.values { stream.yield(snapshot) }
            return (Array(watchers.observers.values), watchers.takeFirstWaiters())
        }
        for waiter in waiters { waiter.resume(returning: snapshot) }
        for observer in observers { observer(snapshot) }
    }

    func deliver(event: JSONValue) {
        let eventWatchers = watchers.withLock { Array($0.eventWatchers.values) }
        for watcher in eventWatchers { watcher.deliver(event) }
    }

    func refused(_ error: ClientError) {
        let waiters = watchers.withLock { $0.takeFirstWaiters() }
        for waiter in waiters { waiter.resume(throwing: error) }
    }

    func end(_ error: ClientError) {
        // Streams are finished outside the lock: finishing runs their `onTermination`, which takes the lock.
        typealias Ended = (waiters: [Waiter], finishers: [@Sendable () -> Void])
        let (waiters, finishers) = watchers.withLock { watchers -> Ended in
            guard watchers.ending == nil else { return ([], []) }
            watchers.ending = error
            var finishers: [@Sendable () -> Void] = watchers.eventWatchers.values.map(\.finish)
            for stream in watchers.streams.values { finishers.append { stream.finish() } }
            watchers.streams.removeAll()
            watchers.observers.removeAll()
            watchers.eventWatchers.removeAll()
            return (watchers.takeFirstWaiters(), finishers)
        }
        for finish in finishers { finish() }
        for waiter in waiters { waiter.resume(throwing: error) }
    }
}
