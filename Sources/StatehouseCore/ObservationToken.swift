/// Identifies one observer registered with ``Store/observe(_:)``; pass it to
/// ``Store/removeObserver(_:)``.
///
/// Tokens are unique within the store that issued them.
public struct ObservationToken: Hashable, Sendable {
    /// Its number, unique within the registry that issued it.
    package let rawValue: UInt64

    /// A token for an observer registry of this package's own (the client's `RemoteStore`).
    package init(rawValue: UInt64) { self.rawValue = rawValue }
}
