/// A property left out of equality and hashing, but still carried on the wire.
///
/// Every two `Ignored` wrappers are equal and hash to nothing, whatever their values, so a state
/// struct with synthesized `Equatable`/`Hashable` compares as if the field were not there. A reduce
/// that changes only ignored fields therefore leaves the state `==` the previous one: the ``Store``
/// keeps the version and notifies nobody (the new value is kept and shows up with the next change).
/// Use it for caches and bookkeeping that must not trigger updates.
///
/// ```swift
/// struct State: Equatable, Codable, Sendable {
///     var items: [String] = []
///     @Ignored var lastSeen: Int = 0
/// }
/// ```
///
/// - **Equatable / Hashable:** unconditional; `==` is always `true`, `hash(into:)` adds nothing.
/// - **Codable** (when `T` is): encodes and decodes the value as a single value, like `T` itself.
/// - **Description, debug description, mirror:** the value's, so `print` and `dump` show the value.
///
/// ## Thread safety
/// A value type; `Sendable` when `T` is.
@propertyWrapper
public struct Ignored<T> {
    /// The value.
    public var wrappedValue: T

    /// Wraps a value.
    ///
    /// - Parameter wrappedValue: The initial value.
    public init(wrappedValue: T) {
        self.wrappedValue = wrappedValue
    }
}

extension Ignored: Sendable where T: Sendable {}

extension Ignored: Hashable {
    /// Always `true`: the value takes no part in equality.
    public static func == (lhs: Ignored<T>, rhs: Ignored<T>) -> Bool {
        true
    }

    /// Adds nothing: the value takes no part in hashing.
    public func hash(into hasher: inout Hasher) {}
}

extension Ignored: Encodable where T: Encodable {
    /// Encodes the value as a single value.
    ///
    /// - Throws: Whatever encoding `T` throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension Ignored: Decodable where T: Decodable {
    /// Decodes the value from a single value.
    ///
    /// - Throws: `DecodingError` when the value does not decode as `T`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(wrappedValue: try container.decode(T.self))
    }
}

extension Ignored: CustomStringConvertible {
    /// The value's description (`String(describing:)`): the field prints although it takes no
    /// part in equality.
    public var description: String {
        String(describing: wrappedValue)
    }
}

extension Ignored: CustomDebugStringConvertible {
    /// The value's debug description (`String(reflecting:)`); a state's default description and
    /// `dump` use it for the field's line.
    public var debugDescription: String {
        String(reflecting: wrappedValue)
    }
}

extension Ignored: CustomReflectable {
    /// The value's mirror, so `dump` lists the value's children, not the wrapper.
    public var customMirror: Mirror {
        Mirror(reflecting: wrappedValue)
    }
}
