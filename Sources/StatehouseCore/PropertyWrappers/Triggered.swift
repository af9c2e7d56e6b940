/// A property whose every write counts as a change, even a write of an equal value.
///
/// The wrapper stores the value and a write counter. Two wrappers are equal only when both their
/// values (`==`) and their write counts are equal, so a reducer that assigns the same value again
/// still produces a state that is `!=` the previous one: the ``Store`` bumps the version and
/// notifies observers. Use it for "fire again" fields: a refresh request, a re-sent notice.
///
/// ```swift
/// struct State: Equatable, Codable, Sendable {
///     @Triggered var notice = "saved"
/// }
/// // In a reducer: `state.notice = "saved"` makes a new version although the text is unchanged.
/// ```
///
/// Semantics:
/// - **Counter.** ``writeCount`` starts at `0` (at `init` and after decoding) and grows by `1` per
///   assignment to ``wrappedValue``, including every in-place mutation (`x.append(…)` is one write).
///   It is a value, not an identity: two copies that saw the same number of writes since a common
///   origin compare equal. That is what lets a test compute the expected state by replaying a write.
/// - **Bound.** The counter is a `UInt64` advanced with wrapping addition (`&+`), so counts are
///   compared modulo 2^64: two wrappers whose counts differ by an exact multiple of 2^64 would compare
///   equal. Reaching that takes 2^64 writes along one line of copies — more than 584 years at one
///   write per nanosecond — so in practice distinct write counts never compare equal.
/// - **Codable.** Encodes the value only (a single value, as `T` itself encodes); the count is not
///   on the wire and a decoded wrapper starts at `0`.
/// - **Hashable** (when `T` is): hashes the value and the count, consistent with `==`.
/// - **Description and mirror:** the value's. The debug description adds the count
///   (`"saved" (writeCount: 2)`), so `dump` and a state's default description show it.
///
/// ## Thread safety
/// A value type; `Sendable` when `T` is.
@propertyWrapper
public struct Triggered<T> {
    private var value: T

    /// The number of writes to ``wrappedValue`` since creation or decoding, modulo 2^64.
    public private(set) var writeCount: UInt64

    /// Wraps an initial value with a write count of `0`.
    ///
    /// - Parameter wrappedValue: The initial value (not counted as a write).
    public init(wrappedValue: T) {
        self.value = wrappedValue
        self.writeCount = 0
    }

    /// The value. Every set (and every in-place mutation) adds `1` to ``writeCount``.
    public var wrappedValue: T {
        get { value }
        set {
            value = newValue
            writeCount &+= 1
        }
    }

    /// `$x`: the wrapper itself, to read ``writeCount``.
    public var projectedValue: Triggered<T> {
        self
    }
}

extension Triggered: Sendable where T: Sendable {}

extension Triggered: Equatable where T: Equatable {
    /// Equal when both the write counts and the values are equal.
    public static func == (lhs: Triggered<T>, rhs: Triggered<T>) -> Bool {
        lhs.writeCount == rhs.writeCount && lhs.value == rhs.value
    }
}

extension Triggered: Hashable where T: Hashable {
    /// Hashes the write count and the value (consistent with `==`).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(writeCount)
        hasher.combine(value)
    }
}

extension Triggered: Encodable where T: Encodable {
    /// Encodes the value only, as a single value; the write count is not encoded.
    ///
    /// - Throws: Whatever encoding `T` throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

extension Triggered: Decodable where T: Decodable {
    /// Decodes the value from a single value; the write count starts at `0`.
    ///
    /// - Throws: `DecodingError` when the value does not decode as `T`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(wrappedValue: try container.decode(T.self))
    }
}

extension Triggered: CustomStringConvertible {
    /// The value's description (`String(describing:)`), without the write count.
    public var description: String {
        String(describing: value)
    }
}

extension Triggered: CustomDebugStringConvertible {
    /// The value's debug description followed by the write count, as in `"saved" (writeCount: 2)`.
    ///
    /// A state's default description and `dump` use it for the field's line, so a `TestStore` diff
    /// of two states whose values agree still shows why they differ: the count takes part in `==`.
    public var debugDescription: String {
        "\(String(reflecting: value)) (writeCount: \(writeCount))"
    }
}

extension Triggered: CustomReflectable {
    /// The value's mirror, so `dump` lists the value's children, not the wrapper's stored
    /// properties (the count is on the field's line, see ``debugDescription``).
    public var customMirror: Mirror {
        Mirror(reflecting: value)
    }
}
