/// Throttle windows: which ids are throttled until when, and the trailing effect each one keeps.
extension Store {
    /// A throttled effect kept for the end of its window (`latest: true`).
    ///
    /// It holds one count on its parent run (nested) or on its settle group (top-level) until it
    /// is started or discarded, so the enclosing work does not finish meanwhile.
    struct Trailing: Sendable {
        let effect: Effect<R.Action>
        let parent: RunID?
        let group: SettleGroupID?
    }

    /// One open window.
    struct ThrottleWindow: Sendable {
        /// Distinguishes this window from a later one with the same id.
        let generation: UInt64
        /// The window length, reused when a trailing effect opens the next window.
        let length: Duration
        /// When the window ends, as an offset on the store's clock.
        let deadline: Duration
        /// Sleeps until the window ends, then calls `throttleWindowEnded`.
        let timer: Task<Void, Never>
        var trailing: Trailing?
    }

    /// Decides whether a throttled effect starts now (leading): `true` opens a window for `id`.
    /// Inside an open window it returns `false`, and with `latest` keeps `inner` as the trailing
    /// effect (replacing, and releasing, the one kept before).
    ///
    /// A window whose deadline the store's clock has reached is ended first, here, even if its timer's hop onto the
    /// store has not run yet: whether an effect leads depends on the clock, not on when a task was scheduled (with a
    /// test clock, `advance(by:)` then `send` is deterministic; on a loaded machine, a late timer never throttles an
    /// effect that comes after the window).
    func admitThrottled(
        _ inner: Effect<R.Action>,
        id: EffectID,
        window: Duration,
        latest: Bool,
        parent: RunID?
    ) -> Bool {
        if let open = throttles[id], clock.elapsed() >= open.deadline {
            open.timer.cancel()
            throttleWindowEnded(id, generation: open.generation)
        }
        guard throttles[id] != nil else {
            openThrottleWindow(id, length: window)
            return true
        }
        guard latest else { return false }
        discardTrailing(id)
        if let parent {
            guard retain(parent) else { return false }
        } else {
            retainGroup(currentGroup)
        }
        throttles[id]?.trailing = Trailing(effect: inner, parent: parent, group: parent == nil ? currentGroup : nil)
        return false
    }

    /// The asynchronous interpreter's entry: admits a throttled effect nested in `parent` and, if
    /// it leads, starts it as a cancellable child task run under `id`.
    ///
    /// - Returns: The task to await, or `nil` when ignored, kept for later, or `parent` is gone.
    func startThrottledTask(
        _ inner: Effect<R.Action>,
        id: EffectID,
        window: Duration,
        latest: Bool,
        parent: RunID
    ) -> Task<Void, Never>? {
        guard isLive(parent),
            admitThrottled(inner, id: id, window: window, latest: latest, parent: parent)
        else { return nil }
        return startCancellableTask(inner, parent: parent, effectID: id, cancelInFlight: false)
    }

    private func openThrottleWindow(_ id: EffectID, length: Duration) {
        nextThrottleWindowID += 1
        let generation = nextThrottleWindowID
        let deadline = clock.elapsed() + length
        let clock = clock
        let timer = Task { [weak self] in
            do {
                try await clock.sleepUntil(deadline)
            } catch {
                return
            }
            await self?.throttleWindowEnded(id, generation: generation)
        }
        throttles[id] = ThrottleWindow(generation: generation, length: length, deadline: deadline, timer: timer)
    }

    /// Ends a window: starts its trailing effect (opening the next window) or forgets the id.
    private func throttleWindowEnded(_ id: EffectID, generation: UInt64) {
        guard let window = throttles[id], window.generation == generation else { return }
        throttles[id] = nil
        if let trailing = window.trailing {
            openThrottleWindow(id, length: window.length)
            let effect = Effect(.cancellable(trailing.effect, id: id, cancelInFlight: false))
            if let parent = trailing.parent {
                if isLive(parent) { start(effect, parent: parent) }
                release(parent)
            } else {
                currentGroup = trailing.group
                start(effect, parent: nil)
                currentGroup = nil
                releaseGroup(trailing.group)
            }
        }
        resumeIdleWaitersIfIdle()
    }

    /// Drops the trailing effect kept under `id`, if any, releasing what it held.
    func discardTrailing(_ id: EffectID) {
        guard let trailing = throttles[id]?.trailing else { return }
        throttles[id]?.trailing = nil
        if let parent = trailing.parent {
            release(parent)
        } else {
            releaseGroup(trailing.group)
        }
    }

    /// Closes every window (timers cancelled, trailing effects discarded); used by reset.
    func closeAllThrottleWindows() {
        for (id, window) in throttles {
            window.timer.cancel()
            discardTrailing(id)
        }
        throttles = [:]
    }

    /// Whether any window keeps a trailing effect (the store is then not idle).
    var hasTrailingThrottle: Bool {
        throttles.values.contains { $0.trailing != nil }
    }

    /// The number of open throttle windows (for tests: `0` once every window has ended).
    package var throttleWindowCount: Int {
        throttles.count
    }
}
