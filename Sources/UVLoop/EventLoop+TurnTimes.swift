internal import CLibUV

extension EventLoop {
    /// Starts timing the loop's turns into ``turnTimes``: libuv counts the time the loop blocks in its poll
    /// (`UV_METRICS_IDLE_TIME`), and a prepare handle, run once per turn just before the poll, records the time since
    /// the previous one minus what the loop spent blocked between them. Call from `init`, before the loop runs.
    /// - Throws: `UVError` when libuv refuses the option or the handle.
    func startTurnTimes() throws(UVError) {
        try UVError.check(cuv_loop_track_idle_time(uvLoop), "uv_loop_configure")
        try UVError.check(uv_prepare_init(uvLoop, turnWatch), "uv_prepare_init")
        turnWatch.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        try UVError.check(uv_prepare_start(turnWatch) { handle in
            guard let raw = handle?.pointee.data else { return }
            Unmanaged<EventLoop>.fromOpaque(raw).takeUnretainedValue().turnEnded()
        }, "uv_prepare_start")
        // The door alone keeps the loop running; this handle must not.
        uv_unref(cuv_prepare_as_handle(turnWatch))
    }

    /// Records the turn that ends here (loop thread, from the prepare handle).
    private func turnEnded() {
        let now = uv_hrtime()
        let idle = uv_metrics_idle_time(uvLoop)
        let last = lastTurnMark
        lastTurnMark = (now, idle)
        guard last.time != 0 else { return }
        let elapsed = now &- last.time
        let blocked = idle &- last.idle
        turnTimes.record(nanoseconds: elapsed > blocked ? elapsed - blocked : 0)
    }
}
