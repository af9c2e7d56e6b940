/// Why a JSON Patch could not be applied or parsed (RFC 6902 §5: any failure aborts the whole patch).
public struct JSONPatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The target (remove, replace, test), `from` (move, copy) or the parent of an `add` target does not exist.
        case pathNotFound
        /// An array token that is not a valid index for the operation: leading zeros, not a number, out of range,
        /// or `-` anywhere but the last token of an `add` path.
        case invalidArrayIndex
        /// A path continues below a string, number, Boolean or null.
        case notAContainer
        /// A `test` operation found a different value (§4.6).
        case testFailed
        /// A `move` whose `path` lies inside its `from` (§4.4).
        case moveIntoDescendant
        /// `remove` of the root (`""`) path.
        case cannotRemoveRoot
        /// The patch document is not an array of well-formed operation objects; carries a short description.
        case malformedOperation(String)
    }

    /// Index of the failing operation in the patch (0-based).
    public var operationIndex: Int
    /// The pointer text involved (`path`, or `from` when that is what failed).
    public var pointer: String
    /// The kind of failure.
    public var reason: Reason

    /// An error for operation `operationIndex` at `pointer`.
    public init(operationIndex: Int, pointer: String, reason: Reason) {
        self.operationIndex = operationIndex
        self.pointer = pointer
        self.reason = reason
    }

    /// E.g. `operation 2 (/a/b): pathNotFound`.
    public var description: String { "operation \(operationIndex) (\(pointer)): \(reason)" }
}
