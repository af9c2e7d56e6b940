import Foundation
import Glibc
@testable import StatehouseServer
import Testing

extension ServerTests {
    /// Freed heap memory goes back to the OS after ``MemoryReclaim/trimSoon()``, though glibc alone keeps it.
    @Suite struct MemoryReclaimTests {
        /// Sanitizers bring their own allocator (and quarantine freed memory): glibc's trim has nothing to give back.
        @Test(.enabled(if: ProcessInfo.processInfo.environment["STATEHOUSE_SANITIZER"] == nil))
        func aTrimGivesFreedHeapPagesBack() async throws {
            // About 256 MB with malloc's headers, and 160 MB of it must come back: other tests in this process allocate
            // meanwhile (one sends from 100,000 tasks), so the margin is what they may grow by, not a few MB.
            let blockCount = 1_200_000, blockBytes = 200
            var blocks = (0..<blockCount).map { _ in malloc(blockBytes)! }
            for block in blocks { memset(block, 1, blockBytes) }
            let fence = malloc(blockBytes)  // holds the heap's top: glibc cannot shrink it by itself
            let grown = residentBytes()
            for block in blocks { free(block) }
            blocks = []
            MemoryReclaim.trimSoon()
            MemoryReclaim.trimSoon()  // shares the scheduled trim
            let deadline = ContinuousClock.now + .seconds(5)
            var now = residentBytes()
            while now > grown - 160 << 20, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
                now = residentBytes()
            }
            free(fence)
            #expect(now <= grown - 160 << 20, "resident \(grown >> 20) MiB with the blocks, \(now >> 20) MiB after the trim")
        }
    }
}
