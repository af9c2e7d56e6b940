#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The project's clock for durations and deadlines within a process: `CLOCK_MONOTONIC` in nanoseconds (the clock of
/// libuv's `uv_hrtime`, so its values compare with the event loop's turn budget). Not a wall clock.
///
/// ## Thread safety
/// Any thread (one `clock_gettime`, served by the vDSO without a system call).
public enum MonotonicClock {
    /// Now, in nanoseconds since an unspecified start (boot, on Linux).
    public static func nowNs() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
