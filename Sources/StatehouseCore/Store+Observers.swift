import Locking

extension Store {
    /// A registered state observer: a plain callback (``observe(_:)``), or a stream's callback that
    /// returns `false` when it wants to be removed, with what finishes the stream when the store stops
    /// (``states(bufferingPolicy:)``, ``states(_:bufferingPolicy:)``). Two cases rather than one wrapping closure, so
    /// a plain observer costs no extra closure context.
    enum Observer: Sendable {
        case callback(@Sendable (Snapshot<R.State>) -> Void)
        case untilFalse(@Sendable (Snapshot<R.State>) -> Bool, finish: @Sendable () -> Void)

        /// Calls it; returns `false` when it wants to be removed.
        func notify(_ snapshot: Snapshot<R.State>) -> Bool {
            switch self {
            case .callback(let onChange):
                onChange(snapshot)
                return true
            case .untilFalse(let onChange, _):
                return onChange(snapshot)
            }
        }

        /// The store stopped: a stream's consumer sees its loop end (after the snapshots already buffered).
        func storeStopped() {
            if case .untilFalse(_, let finish) = self { finish() }
        }
    }

    /// Registers a synchronous observer, atomically with reading the current snapshot.
    ///
    /// `onChange` is not called for the returned snapshot; it is called for every later distinct
    /// state, once per version, in version order, on the store's actor inside the reduce path.
    /// Keep it cheap and non-blocking (for example: yield into a stream, write into a buffer).
    ///
    /// - Parameter onChange: Receives each new snapshot.
    /// - Returns: The snapshot at registration, and the token for ``removeObserver(_:)``.
    public func observe(
        _ onChange: @escaping @Sendable (Snapshot<R.State>) -> Void
    ) -> (current: Snapshot<R.State>, token: ObservationToken) {
        (snapshot, addObserver(.callback(onChange)))
    }

    /// Removes an observer; after this returns it is not called again. Unknown tokens are ignored.
    ///
    /// - Parameter token: The token returned by ``observe(_:)`` or ``observeEvents(_:)``.
    public func removeObserver(_ token: ObservationToken) {
        observers.removeAll { $0.token == token }
        eventObservers.removeAll { $0.token == token }
    }

    /// A stream of this store's snapshots for one consumer: first the current snapshot, then every
    /// distinct state in version order, as far as `bufferingPolicy` keeps them.
    ///
    /// **The default keeps only the newest snapshot** (`.bufferingNewest(1)`): a consumer that falls
    /// behind skips intermediate states but always receives the newest one, so it ends on the latest
    /// state, and a consumer that never reads holds at most one snapshot. That is what a server wants:
    /// it must not buffer without bound for a consumer that does not read. Pass `.unbounded` to get
    /// every state (each one the consumer has not read yet is kept until it does), or
    /// `.bufferingNewest(n)` / `.bufferingOldest(n)` for a bounded buffer of `n` snapshots.
    ///
    /// The stream has its own observer; when the consumer stops iterating (the iterating task is
    /// cancelled, or the stream is dropped) the observer is removed. The stream finishes when the
    /// store stops (``enqueueStop(completion:)``: a hosted store deleted, or the server shutting down)
    /// or is released (see "Lifetime" on ``Store``), after the snapshots buffered; a stream asked of a
    /// stopped store holds its final snapshot and is finished already.
    ///
    /// - Parameter bufferingPolicy: What the stream keeps while its consumer does not read; default
    ///   `.bufferingNewest(1)`.
    /// - Returns: A new stream; each call makes an independent one.
    public func states(
        bufferingPolicy: AsyncStream<Snapshot<R.State>>.Continuation.BufferingPolicy = .bufferingNewest(1)
    ) -> AsyncStream<Snapshot<R.State>> {
        stream(bufferingPolicy: bufferingPolicy, first: snapshot) { $0 }
    }

    /// A stream of one property of the state for one consumer: first its current value, then each
    /// value that differs (`!=`) from the one yielded before it. Changes of other properties yield
    /// nothing (per-property deduplication, which OneWay leaves to `removeDuplicates()`).
    ///
    /// ```swift
    /// for await count in await store.states(\.count) { label.text = "\(count)" }
    /// ```
    ///
    /// Buffering, removal of the observer when the consumer goes away, and the end of the stream are
    /// as for ``states(bufferingPolicy:)``; the default again keeps only the newest value.
    ///
    /// - Parameters:
    ///   - keyPath: The property.
    ///   - bufferingPolicy: What the stream keeps while its consumer does not read; default
    ///     `.bufferingNewest(1)`; `.unbounded` keeps every value not read yet.
    /// - Returns: A new stream; each call makes an independent one.
    public func states<Value: Equatable & Sendable>(
        _ keyPath: any KeyPath<R.State, Value> & Sendable,
        bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(1)
    ) -> AsyncStream<Value> {
        let first = state[keyPath: keyPath]
        // Read and written only by the observer, which runs on the actor; the lock makes the closure Sendable.
        let last = Locked(first)
        return stream(bufferingPolicy: bufferingPolicy, first: first) { snapshot in
            let value = snapshot.state[keyPath: keyPath]
            return last.withLock { last in
                guard value != last else { return nil }
                last = value
                return value
            }
        }
    }

    /// A stream that yields `first`, then `element(snapshot)` for each new snapshot where that is not `nil`, with an
    /// observer removed when the consumer goes away and finished when the store stops or is released.
    private func stream<Element: Sendable>(
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy,
        first: Element,
        element: @escaping @Sendable (Snapshot<R.State>) -> Element?
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        continuation.yield(first)
        guard !isStopped else {
            continuation.finish()
            return stream
        }
        let token = addObserver(
            .untilFalse({ snapshot in
                guard let next = element(snapshot) else { return true }
                if case .terminated = continuation.yield(next) { return false }
                return true
            }, finish: { continuation.finish() }))
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            Task { await self.removeObserver(token) }
        }
        return stream
    }

    /// The number of registered observers, including those behind ``states(bufferingPolicy:)`` and
    /// ``states(_:bufferingPolicy:)`` streams.
    package var observerCount: Int {
        observers.count
    }

    private func addObserver(_ observer: Observer) -> ObservationToken {
        nextObservationID += 1
        let token = ObservationToken(rawValue: nextObservationID)
        observers.append((token, observer))
        return token
    }

    /// Calls every observer with `snapshot`, in registration order; removes those that asked to be removed.
    func notifyObservers(_ snapshot: Snapshot<R.State>) {
        var finished: [ObservationToken] = []
        for (token, observer) in observers where !observer.notify(snapshot) {
            finished.append(token)
        }
        if !finished.isEmpty {
            observers.removeAll { finished.contains($0.token) }
        }
    }
}
