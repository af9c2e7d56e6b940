/// Where a StatehouseTesting check was called from: the caller's `#fileID`, `#filePath`, `#line` and `#column`.
///
/// `StaticString` and `UInt`, as XCTest's `XCTFail(_:file:line:)` takes them (and OneWay's `expect`, TCA's
/// `TestStore`): a failure then lands at the caller's line under XCTest too, not only under Swift Testing.
struct CallSite: Sendable {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    /// Reports one failure at this call site to whichever test runner is active (see ``FailureReporter``).
    func fail(_ message: String) {
        FailureReporter.report(message, at: self)
    }
}
