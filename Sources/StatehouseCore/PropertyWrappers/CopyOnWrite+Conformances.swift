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
