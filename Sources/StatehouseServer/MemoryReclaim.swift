import Dispatch
import Glibc
import Synchronization

/// Gives memory that large frees leave in glibc's heap back to the operating system.
///
/// glibc keeps freed blocks for reuse: after a 5 MB store is deleted, or 19,900 connections close, the process's
/// resident size stays where it was until something calls `malloc_trim`, which returns every free page (of every
/// arena, not only the top of the heap) with `madvise(MADV_DONTNEED)`. ``trimSoon()`` asks for one such trim, run on
/// a utility-priority thread 1 s later (so the frees that follow a deletion, e.g. its subscribers' connections
/// closing, are done by then); requests meanwhile share it, so at most one trim runs per second and never on an event
/// loop. Measured in BENCHMARKS.md (big-state): without it the RSS after deleting a 5 MB store stayed about 20 MB over
/// the start; with it, within a few MB.
///
/// ``configure()`` (at start) also fixes glibc's mmap threshold at ``mmapThreshold``: a block that large (a big
/// state's JSON, its messages, a big parse's arrays) is its own mapping, unmapped when freed. By default the
/// threshold rises to the largest block freed so far (up to 32 MiB), after which such blocks come from the heap and
/// stay resident when freed; measured in BENCHMARKS.md (big-state, 5 MB): 16 MB less RSS after the store was made,
/// 9 MB less at the peak.
///
/// Not glibc (`malloc_trim`/`mallopt` missing, e.g. musl): nothing happens.
///
/// ## Thread safety
/// Any thread: one atomic flag.
enum MemoryReclaim {
    /// Whether a trim is scheduled and has not started yet.
    private static let scheduled = Atomic<Bool>(false)

    /// glibc's `int malloc_trim(size_t pad)`, found at run time: Swift's Glibc module does not import `<malloc.h>`.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(nil, "malloc_trim").map {
        unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
    }

    /// glibc's `int mallopt(int param, int value)`.
    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = dlsym(nil, "mallopt").map {
        unsafeBitCast($0, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }

    /// Blocks of at least this many bytes (256 KiB) are mapped on their own: `M_MMAP_THRESHOLD`.
    static let mmapThreshold: Int32 = 256 * 1024

    /// Sets the mmap threshold (`mallopt(M_MMAP_THRESHOLD, …)`, which also stops glibc from moving it). Call once at
    /// start; later calls change nothing.
    static func configure() {
        let mmapThresholdParameter: Int32 = -3  // M_MMAP_THRESHOLD in <malloc.h>
        _ = mallopt?(mmapThresholdParameter, mmapThreshold)
    }

    /// Schedules one `malloc_trim(0)` about 1 s from now, unless one is scheduled already.
    static func trimSoon() {
        guard mallocTrim != nil, !scheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .seconds(1)) {
            scheduled.store(false, ordering: .releasing)
            _ = mallocTrim?(0)
        }
    }
}
