/// A property whose (large) value lives in a heap box shared between copies until one of them writes.
///
/// Copying a state struct then copies one reference instead of the whole value; a write checks
/// `isKnownUniquelyReferenced` and copies the value into a fresh box only when the box is shared.
/// In-place mutation (`x.append(…)`, `x[k] = v`) mutates the boxed value directly when the box is
/// not shared, so it does not copy the value either. Useful for big fields of a ``Store`` state,
/// which the store copies before every reduce to detect changes.
///
/// ```swift
/// struct State: Equatable, Codable, Sendable {
///     @CopyOnWrite var rows: [Row] = []
/// }
/// ```
///
/// - **Equatable / Hashable** (when `T` is): pass through to the value; two wrappers sharing a box
///   are equal without comparing the values.
/// - **Codable** (when `T` is): the value as a single value, like `T` itself.
/// - **Description, debug description, mirror:** the value's, so `print` and `dump` show the value,
///   not the box.
///
/// ## Thread safety
/// A value type; `Sendable` when `T` is. A shared box is never written: a write first makes the box
/// unique (copying it if needed), and a box referenced only by this wrapper cannot be seen by any
/// other thread.
@propertyWrapper
public struct CopyOnWrite<T> {
    private var box: CopyOnWriteBox<T>

    /// Boxes an initial value.
    ///
    /// - Parameter wrappedValue: The initial value.
    public init(wrappedValue: T) {
        self.box = CopyOnWriteBox(wrappedValue)
    }

    /// The value. Reading never copies the box; writing copies it first only if it is shared.
    public var wrappedValue: T {
        get { box.value }
        set {
            if isKnownUniquelyReferenced(&box) {
                box.value = newValue
            } else {
                box = CopyOnWriteBox(newValue)
            }
        }
        _modify {
            if !isKnownUniquelyReferenced(&box) {
                box = CopyOnWriteBox(box.value)
            }
            yield &box.value
        }
    }

    /// `$x`: the wrapper itself, to ask ``sharesStorage(with:)``.
    public var projectedValue: CopyOnWrite<T> {
        self
    }

    /// Whether this wrapper and `other` currently share one box (no copy made yet).
    ///
    /// - Parameter other: Another wrapper.
    /// - Returns: `true` when both refer to the same box.
    public func sharesStorage(with other: CopyOnWrite<T>) -> Bool {
        box === other.box
    }
}

/// The heap box behind ``CopyOnWrite``; written only while uniquely referenced.
final class CopyOnWriteBox<T> {
    var value: T

    init(_ value: T) {
        self.value = value
    }
}

extension CopyOnWriteBox: @unchecked Sendable where T: Sendable {}

extension CopyOnWrite: Sendable where T: Sendable {}
