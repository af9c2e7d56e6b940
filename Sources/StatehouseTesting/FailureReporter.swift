import Foundation
import Testing

/// The one way every StatehouseTesting check (``TestStore`` steps, `Store.expect`) reports a failure: to the test
/// runner that is running the caller, at the caller's line.
///
/// In order:
/// 1. a Swift Testing test is running on this task (`Test.current != nil`): an `Issue` at the call site, so
///    `withKnownIssue` can expect it;
/// 2. otherwise, where XCTest can be imported and a test case may be running (see ``XCTestRunTracker``):
///    `XCTFail(_:file:line:)` at the call site; corelibs XCTest hands it to the running test case (a global, not a
///    task-local: a failure from an effect's task reaches it too) through its
///    `recordFailure(withDescription:inFile:atLine:expected:)`, as an expected failure;
/// 3. otherwise (no runner took it): one line `<file>:<line>:<column>: error: <message>` on standard error.
///
/// Why not just `Issue.record`: under XCTest (Swift 6.3, Linux) it is dropped without a trace, so a failing check in
/// an XCTest test would pass. `XCTFail` has the mirror problem: in a Swift Testing test it is dropped.
///
/// ## Thread safety
/// Callable from any task or thread; the XCTest side is guarded by ``XCTestRunTracker``'s lock.
enum FailureReporter {
    /// Reports `message` at `site` (see the type's order).
    static func report(_ message: String, at site: CallSite) {
        if Test.current != nil {
            let location = SourceLocation(
                fileID: String(describing: site.fileID), filePath: String(describing: site.filePath),
                line: Int(site.line), column: Int(site.column))
            Issue.record(Comment(rawValue: message), sourceLocation: location)
            return
        }
        if reportToXCTest(message, at: site) { return }
        writeToStandardError(message, at: site)
    }

    /// Registers the XCTest observer now, so that the test case running later reports can be known; called when a
    /// test store or an expectation is created (the earlier, the fewer failures reach XCTest with its state unknown).
    static func prepare() {
        #if canImport(XCTest)
        XCTestRunTracker.register()
        #endif
    }

    /// Tries XCTest; `false` when it cannot take the failure (not importable, or no test case is running).
    private static func reportToXCTest(_ message: String, at site: CallSite) -> Bool {
        #if canImport(XCTest)
        XCTestRunTracker.shared.report(message, at: site)
        #else
        false
        #endif
    }

    private static func writeToStandardError(_ message: String, at site: CallSite) {
        let line = "\(site.filePath):\(site.line):\(site.column): error: \(message)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
