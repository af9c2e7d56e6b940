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
/// glibc's mmap threshold is left as it is (it rises with the largest block freed, so big blocks come from the heap
/// and are reused there). Fixing it at 256 KiB (`mallopt(M_MMAP_THRESHOLD)`, so every big block is its own mapping,
/// unmapped when freed) was measured (BENCHMARKS.md, big-state, 5 MB): 9 MB less peak RSS, but 2.5 times the page
/// faults (each big state's encoding and messages in fresh pages on every change) and a POST p50 of 132 ms instead
/// of 85 ms in this VM, where page faults are dear; the trim alone gives the memory back.
///
/// Not glibc (`malloc_trim` missing, e.g. musl): nothing happens.
///
/// ## Thread safety
/// Any thread: one atomic flag.
enum MemoryReclaim {
    /// Whether a trim is scheduled and has not started yet.
    private static let scheduled = Atomic<Bool>(false)

    /// glibc's `int malloc_trim(size_t pad)`, found at run time: Swift's Glibc module does not import `<malloc.h>`.
    /// (`unsafeBitCast` is not for speed here: it is how a `dlsym` pointer becomes a callable C function; called on
    /// a trim only, far from any hot path.)
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(nil, "malloc_trim").map {
        unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
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
