/// A state together with the version it was reached at.
///
/// Versions count distinct states: a store starts at version `0`, and each reduce that leaves the
/// state different (by `==`) from the one before adds exactly `1`. Two snapshots of one store with
/// the same version hold equal states.
public struct Snapshot<State: Sendable>: Sendable {
    /// The number of state changes since the store was created (starts at `0`).
    public let version: UInt64
    /// The state at ``version``.
    public let state: State

    /// Creates a snapshot.
    ///
    /// - Parameters:
    ///   - version: The version the state was reached at.
    ///   - state: The state.
    public init(version: UInt64, state: State) {
        self.version = version
        self.state = state
    }
}

extension Snapshot: Equatable where State: Equatable {}
