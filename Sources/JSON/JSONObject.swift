/// The members of a JSON object (RFC 8259 §4): unique string keys with values, in insertion order.
///
/// Setting an existing key replaces its value in place (the member keeps its position); setting a new key appends.
/// Lookups are O(1) on average (a hash index is kept once an object has more than 8 members; smaller objects are
/// scanned). Equality and hashing ignore member order, as JSON object semantics require.
public struct JSONObject: Sendable {
    /// Keys in member order; never contains duplicates.
    public private(set) var keys: [String]
    /// Values, parallel to `keys`.
    public private(set) var values: [JSONValue]
    /// Key → position, present only when `keys.count > indexThreshold`.
    private var index: [String: Int]?

    private static let indexThreshold = 8

    /// An empty object.
    public init() {
        keys = []
        values = []
        index = nil
    }

    /// Members from `(key, value)` pairs in order; a repeated key keeps its first position and its last value.
    public init(_ members: some Sequence<(String, JSONValue)>) {
        self.init()
        for (key, value) in members {
            self[key] = value
        }
    }

    /// Members from parallel key and value arrays (the parser's path), taken as they are when the keys are unique;
    /// the index is built once for large objects. Repeated keys fall back to member-by-member insertion (first
    /// position, last value).
    init(parsedKeys: [String], values: [JSONValue]) {
        var built: [String: Int]?
        var unique = true
        if parsedKeys.count > Self.indexThreshold {
            var table = [String: Int](minimumCapacity: parsedKeys.count)
            for (position, key) in parsedKeys.enumerated() where table.updateValue(position, forKey: key) != nil {
                unique = false
                break
            }
            built = table
        } else {
            outer: for later in parsedKeys.indices {
                for earlier in 0..<later where parsedKeys[earlier] == parsedKeys[later] {
                    unique = false
                    break outer
                }
            }
        }
        if unique {
            self.init(uncheckedKeys: parsedKeys, values: values, index: built)
        } else {
            self.init(zip(parsedKeys, values))
        }
    }

    private init(uncheckedKeys: [String], values: [JSONValue], index: [String: Int]?) {
        keys = uncheckedKeys
        self.values = values
        self.index = index
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// Whether there are no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// The position of `key` in member order, or nil.
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    /// The value for `key` (nil when absent). Setting nil removes the member; setting a value replaces it in place or
    /// appends a new member.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return values[position]
        }
        set {
            if let newValue {
                if let position = position(of: key) {
                    values[position] = newValue
                } else {
                    append(key, newValue)
                }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Removes the member for `key` and returns its value, or nil when absent. O(count): later members shift down.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        keys.remove(at: position)
        let removed = values.remove(at: position)
        if keys.count > Self.indexThreshold {
            index![key] = nil
            for later in position..<keys.count {
                index![keys[later]] = later
            }
        } else {
            index = nil
        }
        return removed
    }

    /// Replaces the value at `position` (0..<count), keeping its key. Used for in-place mutation.
    mutating func withValue<R, E: Error>(
        at position: Int, _ body: (inout JSONValue) throws(E) -> R
    ) throws(E) -> R {
        try body(&values[position])
    }

    /// Appends a member whose key is known to be absent.
    private mutating func append(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
        if index != nil {
            index![key] = keys.count - 1
        } else if keys.count > Self.indexThreshold {
            var built = [String: Int](minimumCapacity: keys.count * 2)
            for (position, existing) in keys.enumerated() {
                built[existing] = position
            }
            index = built
        }
    }
}
