extension JSONObject: Sequence {
    /// Iterates `(key, value)` members in member order.
    public struct Iterator: IteratorProtocol {
        private let object: JSONObject
        private var position = 0

        init(_ object: JSONObject) {
            self.object = object
        }

        /// The next member, or nil after the last.
        public mutating func next() -> (key: String, value: JSONValue)? {
            guard position < object.keys.count else { return nil }
            defer { position += 1 }
            return (object.keys[position], object.values[position])
        }
    }

    /// An iterator over members in order.
    public func makeIterator() -> Iterator {
        Iterator(self)
    }

    /// The member count.
    public var underestimatedCount: Int { count }
}

extension JSONObject: Hashable {
    /// Same members (keys with equal values), in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.keys.count == rhs.keys.count else { return false }
        if lhs.keys == rhs.keys { return lhs.values == rhs.values }
        for position in lhs.keys.indices {
            guard let other = rhs[lhs.keys[position]], other == lhs.values[position] else { return false }
        }
        return true
    }

    /// Order-independent: combines the count and a wrapping sum of per-member hashes.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for position in keys.indices {
            var member = Hasher()
            member.combine(keys[position])
            member.combine(values[position])
            sum = sum &+ member.finalize()
        }
        hasher.combine(keys.count)
        hasher.combine(sum)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Members in literal order; a repeated key keeps the last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init()
        for (key, value) in elements {
            self[key] = value
        }
    }
}

extension JSONObject: CustomStringConvertible {
    /// Compact JSON text of the object, members in order.
    public var description: String {
        String(decoding: JSONValue.object(self).serialized(), as: UTF8.self)
    }
}
