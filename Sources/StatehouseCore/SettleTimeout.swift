/// Thrown by ``Store/sendAndSettle(_:timeout:)`` (and passed to the completion of
/// ``Store/enqueueAndSettle(_:timeout:completion:)``) when the timeout passes before the action and
/// everything it started have finished.
///
/// The effects are not cancelled: they keep running and their actions are still reduced.
public struct SettleTimeout<State: Sendable>: Error {
    /// The store's snapshot at the deadline.
    public let snapshot: Snapshot<State>
    /// The timeout that passed, measured on the store's clock.
    public let timeout: Duration

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - snapshot: The snapshot at the deadline.
    ///   - timeout: The timeout that passed.
    public init(snapshot: Snapshot<State>, timeout: Duration) {
        self.snapshot = snapshot
        self.timeout = timeout
    }
}
