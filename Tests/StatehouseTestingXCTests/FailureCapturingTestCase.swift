import Locking
import XCTest

@testable import StatehouseTesting

/// One failure an XCTest test case was given.
struct RecordedFailure: Sendable, Equatable {
    let description: String
    let filePath: String
    let line: Int
    let expected: Bool
}

/// An XCTest test case that can collect the failures reported during a block instead of failing (corelibs XCTest has
/// no `XCTExpectFailure`): ``capturingFailures(_:)`` returns them, to assert their messages and lines. Outside such a
/// block failures go to XCTest as usual, so the test's own `XCTAssert`s still fail it.
class FailureCapturingTestCase: XCTestCase {
    /// `nil` while not capturing.
    private let captured = Locked<[RecordedFailure]?>(nil)

    /// Registers StatehouseTesting's XCTest observer before the first test case of the class starts, so that the
    /// reporter knows a test case is running from the first failure on (registered during a test case instead, it
    /// cannot know until XCTest reports a failure back, which an override like ours does not do).
    override class func setUp() {
        super.setUp()
        FailureReporter.prepare()
    }

    /// Runs `body`; returns the failures reported to this test case meanwhile, which then do not fail the test.
    func capturingFailures(_ body: () async -> Void) async -> [RecordedFailure] {
        captured.withLock { $0 = [] }
        await body()
        return captured.withLock { failures in
            defer { failures = nil }
            return failures ?? []
        }
    }

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        let failure = RecordedFailure(
            description: description, filePath: filePath, line: lineNumber, expected: expected)
        let kept = captured.withLock { failures -> Bool in
            guard failures != nil else { return false }
            failures?.append(failure)
            return true
        }
        if !kept {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
}
