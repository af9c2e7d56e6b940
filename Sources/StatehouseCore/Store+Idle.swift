extension Store {
    /// Whether the store has nothing to do: the mailbox is empty, no effect task is running (a
    /// cancelled one still unwinding counts as running) and no throttle keeps a trailing effect.
    ///
    /// The tasks of ``Reducer/bind()``'s effect do not count (as OneWay's `isIdle` leaves out its binding task): a
    /// subscription may never end, and a store waiting only on it has nothing to do. The actions it sends, and the
    /// effects their reduces start, do count.
    ///
    /// Effects waiting on the clock (``Effect/delayed(by:)``, ``Effect/debounce(_:for:)``) are
    /// tasks, so the store is not idle while they wait. An open throttle window without a trailing
    /// effect does not count. A store that starts itself (`startsAtInit`) is not idle until its start, the
    /// first envelope of its mailbox, has been handled.
    public var isIdle: Bool {
        tasks.count == bindTasks.count && !hasTrailingThrottle && mailbox.isEmpty && journaling?.writing.isEmpty != false
    }

    /// Suspends until the store is idle (see ``isIdle``); returns at once if it is.
    ///
    /// No polling: the store resumes waiters when a drain ends or an effect task ends and it is
    /// idle then.
    public func untilIdle() async {
        if isIdle { return }
        await withCheckedContinuation { continuation in
            idleWaiters.append(continuation)
        }
    }

    /// Resumes every ``untilIdle()`` waiter if the store is idle.
    func resumeIdleWaitersIfIdle() {
        guard !idleWaiters.isEmpty, isIdle else { return }
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters {
            waiter.resume()
        }
    }
}
