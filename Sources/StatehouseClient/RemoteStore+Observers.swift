import JSON
import Statehouse
public import StatehouseCore

extension RemoteStore {
    /// A stream for one consumer: the newest snapshot (when one arrived), then every new state in version order.
    ///
    /// Buffering is `.bufferingNewest(1)`, as a local store's `states()`: a consumer that falls behind skips
    /// intermediate states but always gets the newest. It finishes when the store is closed, deleted, or its server
    /// closed.
    public func states() -> AsyncStream<Snapshot<R.State>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Snapshot<R.State>.self, bufferingPolicy: .bufferingNewest(1))
        let token = view.watchers.withLock { watchers -> UInt64? in
            if let snapshot = watchers.snapshot { continuation.yield(snapshot) }
            guard watchers.ending == nil else {
                continuation.finish()
                return nil
            }
            let token = watchers.token()
            watchers.streams[token] = continuation
            return token
        }
        if let token {
            continuation.onTermination = { [view] _ in _ = view.watchers.withLock { $0.streams.removeValue(forKey: token) } }
        }
        return stream
    }

    /// Calls `onChange` for every later state, once per version, in version order, on the client's event loop
    /// thread (keep it cheap and non-blocking). Returns the snapshot now (nil before the first) and the token for
    /// ``removeObserver(_:)``.
    public func observe(
        _ onChange: @escaping @Sendable (Snapshot<R.State>) -> Void
    ) -> (current: Snapshot<R.State>?, token: ObservationToken) {
        view.watchers.withLock { watchers in
            let token = watchers.token()
            if watchers.ending == nil { watchers.observers[token] = onChange }
            return (watchers.snapshot, ObservationToken(rawValue: token))
        }
    }

    /// Removes an observer; it is not called after this returns (unless a call is under way on the loop thread).
    public func removeObserver(_ token: ObservationToken) {
        _ = view.watchers.withLock { $0.observers.removeValue(forKey: token.rawValue) }
    }
}

extension RemoteStore where R.Event: Decodable {
    /// The events the store's reducer emits from now on, decoded as `R.Event` (events are not replayed: those emitted
    /// while disconnected are not seen). Buffers up to 1,024 unread events, dropping the oldest past that.
    /// An event that does not decode is skipped. It finishes when the store is closed, deleted, or its server closed.
    public func events() -> AsyncStream<R.Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: R.Event.self, bufferingPolicy: .bufferingNewest(1_024))
        let token = view.watchers.withLock { watchers -> UInt64? in
            guard watchers.ending == nil else {
                continuation.finish()
                return nil
            }
            let token = watchers.token()
            watchers.eventWatchers[token] = (
                deliver: { value in
                    if let event = try? FluxStandardAction<R.Event>.decode(value) { continuation.yield(event) }
                },
                finish: { continuation.finish() })
            return token
        }
        if let token {
            continuation.onTermination = { [view] _ in
                _ = view.watchers.withLock { $0.eventWatchers.removeValue(forKey: token) }
            }
        }
        return stream
    }
}
