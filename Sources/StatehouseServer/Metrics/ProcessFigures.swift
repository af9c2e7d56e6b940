import Foundation

/// The process's own figures for `GET /metrics`, from Linux's `/proc/self` (proc(5)) and `getrlimit`.
struct ProcessFigures: Sendable {
    /// File descriptors open now (the entries of `/proc/self/fd`, the one reading it excluded); nil where unreadable.
    var openFileDescriptors: UInt64?
    /// The soft `RLIMIT_NOFILE` (after the server raised it at start); nil when unreadable.
    var maxFileDescriptors: UInt64?
    /// Resident set size in bytes (`/proc/self/statm`, second field, times the page size); nil where unreadable.
    var residentMemoryBytes: UInt64?

    /// Reads them now (a few system calls; any thread).
    static func read() -> ProcessFigures {
        var figures = ProcessFigures()
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            // The directory stream reading the list is one of its entries, closed again by now.
            figures.openFileDescriptors = UInt64(max(entries.count - 1, 0))
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            figures.maxFileDescriptors = limit.rlim_cur >= rlim_t(UInt64.max) ? UInt64.max : UInt64(limit.rlim_cur)
        }
        if let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
            let fields = statm.split(separator: " ")
            if fields.count > 1, let pages = UInt64(fields[1]) {
                figures.residentMemoryBytes = pages * UInt64(sysconf(Int32(_SC_PAGESIZE)))
            }
        }
        return figures
    }
}
