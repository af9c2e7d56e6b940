extension CopyOnWrite: Equatable where T: Equatable {
    /// Equal when the values are equal; `true` at once when both share one box.
    public static func == (lhs: CopyOnWrite<T>, rhs: CopyOnWrite<T>) -> Bool {
        lhs.sharesStorage(with: rhs) || lhs.wrappedValue == rhs.wrappedValue
    }
}

extension CopyOnWrite: Hashable where T: Hashable {
    /// Hashes the value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(wrappedValue)
    }
}

extension CopyOnWrite: Encodable where T: Encodable {
    /// Encodes the value as a single value.
    ///
    /// - Throws: Whatever encoding `T` throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension CopyOnWrite: Decodable where T: Decodable {
    /// Decodes the value from a single value into a new box.
    ///
    /// - Throws: `DecodingError` when the value does not decode as `T`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(wrappedValue: try container.decode(T.self))
    }
}

extension CopyOnWrite: CustomStringConvertible {
    /// The value's description (`String(describing:)`), so `print` shows the value, not the box.
    public var description: String {
        String(describing: wrappedValue)
    }
}

extension CopyOnWrite: CustomDebugStringConvertible {
    /// The value's debug description (`String(reflecting:)`); a state's default description and
    /// `dump` use it for the field's line.
    public var debugDescription: String {
        String(reflecting: wrappedValue)
    }
}

extension CopyOnWrite: CustomReflectable {
    /// The value's mirror, so `dump` (and `TestStore`'s diffs, built on it) lists the value's
    /// children, not the box.
    public var customMirror: Mirror {
        Mirror(reflecting: wrappedValue)
    }
}
