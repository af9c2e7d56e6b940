extension JSONPatch {
    /// Operations that turn `from` into `to`: applying them to `from` (with this or any RFC 6902 implementation)
    /// gives a value equal to `to`. Only `add`, `remove` and `replace` are emitted.
    ///
    /// - Equal inputs (by `==`) give `[]`. Equality is semantic: numbers compare by value (`1` → `1.0` is no change)
    ///   and object member order is ignored, so neither number text nor member order is patched.
    /// - Objects are compared member by member: removed and changed members in `from` order, then new members in
    ///   `to` order.
    /// - Arrays: the common prefix and suffix are skipped; the differing middle is paired element by element (nested
    ///   diffs), extra old elements are removed from the end backwards and extra new elements are added in order.
    ///   When more than `max(4, to.count / 2)` elements would be changed or removed, the whole array is replaced
    ///   instead. So one changed element in a 10,000-element array gives one (nested) operation, and appends or
    ///   trailing removals give one operation per element. Work is O(size of the values) for these cases.
    /// - Values of different kinds, and differing scalars, give one `replace`.
    /// Recursion depth equals the nesting depth of the inputs.
    public static func diff(from: JSONValue, to: JSONValue) -> [JSONPatchOperation] {
        var differ = JSONDiffer()
        differ.diff(from, to)
        return differ.operations
    }
}

/// Accumulates diff operations while walking two values; `path` is the current location's tokens.
struct JSONDiffer {
    var operations: [JSONPatchOperation] = []
    private var path: [String] = []

    /// The tokens of the location being compared.
    var currentPath: [String] { path }

    private var pointer: JSONPointer { JSONPointer(tokens: path) }

    mutating func diff(_ old: JSONValue, _ new: JSONValue) {
        switch (old, new) {
        case (.object(let oldObject), .object(let newObject)):
            diffObjects(oldObject, newObject)
        case (.array(let oldElements), .array(let newElements)):
            diffArrays(oldElements, newElements)
        default:
            if old != new { operations.append(.replace(path: pointer, value: new)) }
        }
    }

    private mutating func diffObjects(_ old: JSONObject, _ new: JSONObject) {
        if old.keys == new.keys {
            for position in old.keys.indices {
                diffChild(old.keys[position], old.values[position], new.values[position])
            }
            return
        }
        for (position, key) in old.keys.enumerated() {
            if let newPosition = new.position(of: key) {
                diffChild(key, old.values[position], new.values[newPosition])
            } else {
                operations.append(.remove(path: pointer.appending(key)))
            }
        }
        for (position, key) in new.keys.enumerated() where old.position(of: key) == nil {
            operations.append(.add(path: pointer.appending(key), value: new.values[position]))
        }
    }

    mutating func diffElement(_ index: Int, _ old: JSONValue, _ new: JSONValue) {
        diffChild(String(index), old, new)
    }

    private mutating func diffChild(_ token: String, _ old: JSONValue, _ new: JSONValue) {
        path.append(token)
        diff(old, new)
        path.removeLast()
    }
}
