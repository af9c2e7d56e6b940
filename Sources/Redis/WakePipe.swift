internal import CHiredis
#if canImport(Glibc)
import Glibc
#endif

/// A self-pipe: any thread writes a byte to wake a thread blocked in poll(2) on ``readDescriptor``.
///
/// Both ends are non-blocking and close-on-exec; a full pipe already means "wake up", so a failed write is fine.
///
/// ## Thread safety
/// ``wake()`` from any thread; ``drain()`` from the polling thread; ``close()`` once nobody polls or wakes.
struct WakePipe: Sendable {
    let readDescriptor: Int32
    let writeDescriptor: Int32

    /// A new pipe; traps when the process is out of file descriptors (nothing else would work either).
    init() {
        var ends: [Int32] = [-1, -1]
        let status = chiredis_nonblocking_pipe(&ends)
        precondition(status == 0, "pipe failed: errno \(-status)")
        readDescriptor = ends[0]
        writeDescriptor = ends[1]
    }

    /// Makes the read end readable until the next ``drain()``.
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Reads every pending wake-up byte.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readDescriptor, &buffer, buffer.count) > 0 {}
    }

    func close() {
        _ = Glibc.close(readDescriptor)
        _ = Glibc.close(writeDescriptor)
    }
}
