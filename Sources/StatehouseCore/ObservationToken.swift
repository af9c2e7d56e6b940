/// Identifies one observer registered with ``Store/observe(_:)``; pass it to
/// ``Store/removeObserver(_:)``.
///
/// Tokens are unique within the store that issued them.
public struct ObservationToken: Hashable, Sendable {
    let rawValue: UInt64
}
