import Foundation
import Glibc
@testable import StatehouseServer
import Testing

extension ServerTests {
    /// Freed heap memory goes back to the OS after ``MemoryReclaim/trimSoon()``, though glibc alone keeps it.
    @Suite struct MemoryReclaimTests {
        /// Resident bytes of this process (`/proc/self/statm`, field 2, in pages).
        static func residentBytes() throws -> Int {
            let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
            return (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
        }

        @Test func aTrimGivesFreedHeapPagesBack() async throws {
            let blockCount = 300_000, blockBytes = 200  // about 64 MB with malloc's headers
            var blocks = (0..<blockCount).map { _ in malloc(blockBytes)! }
            for block in blocks { memset(block, 1, blockBytes) }
            let fence = malloc(blockBytes)  // holds the heap's top: glibc cannot shrink it by itself
            let grown = try Self.residentBytes()
            for block in blocks { free(block) }
            blocks = []
            MemoryReclaim.trimSoon()
            MemoryReclaim.trimSoon()  // shares the scheduled trim
            let deadline = ContinuousClock.now + .seconds(5)
            var now = try Self.residentBytes()
            while now > grown - 40 << 20, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
                now = try Self.residentBytes()
            }
            free(fence)
            #expect(now <= grown - 40 << 20, "resident \(grown >> 20) MiB with the blocks, \(now >> 20) MiB after the trim")
        }
    }
}
