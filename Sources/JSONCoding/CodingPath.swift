/// One step of a coding path, stored without allocating: a container key, an unkeyed index or the key `super`.
enum PathKey {
    /// A key of a keyed container (or a `superDecoder(forKey:)` / `superEncoder(forKey:)` key).
    case key(any CodingKey)
    /// A position in an unkeyed container, 0-based.
    case index(Int)

    /// The public `CodingKey` for this step.
    var codingKey: any CodingKey {
        switch self {
        case .key(let key): return key
        case .index(let index): return IndexKey(index)
        }
    }
}

/// The key for an unkeyed-container position, spelled as Foundation's coders spell it: `Index 3`, intValue 3.
struct IndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init?(intValue: Int) {
        self.init(intValue)
    }
}

/// A plain string key: `super` for `superDecoder()` / `superEncoder()`, and keys of Foundation-type bridges.
struct NamedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) {
        stringValue = name
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        return nil
    }

    /// The key `super`, used by the argument-less `superDecoder()` / `superEncoder()`.
    static let superKey = NamedKey("super")
}

/// Where a container sits: the first `depth` steps of its coder's path stack, then (only for nested containers,
/// which have no stack frame of their own) the steps in `nested`. Materialized into `[CodingKey]` only on demand.
///
/// The usual position is a bare depth: copying it costs no reference counting beyond a nil check, which matters
/// because `Keyed…ContainerBox` copies the container holding it for every call. A nested position allocates one
/// list node per nested step.
///
/// The stack prefix is valid while the container is used inside the `init(from:)` / `encode(to:)` call that
/// created it (the Codable contract); a container kept past that call may report a wrong path.
struct PathPosition {
    var depth: Int
    /// The steps after the stack prefix, innermost last; nil for a position on the stack itself.
    private(set) var nested: NestedSteps?

    init(depth: Int) {
        self.depth = depth
    }

    /// Whether this position has steps beyond the stack prefix.
    var isNested: Bool { nested != nil }

    /// This position extended by `key` (for a nested container).
    func appending(_ key: PathKey) -> PathPosition {
        var copy = self
        copy.nested = NestedSteps(key, after: nested)
        return copy
    }

    /// Appends the steps after the stack prefix to `stack`.
    func pushSteps(onto stack: inout [PathKey]) {
        guard let nested else { return }
        stack.append(contentsOf: nested.steps)
    }

    /// The full path, reading the stack prefix from `stack`, optionally followed by `final`.
    func codingPath(in stack: [PathKey], then final: PathKey? = nil) -> [any CodingKey] {
        var path: [any CodingKey] = []
        path.reserveCapacity(depth + (nested?.count ?? 0) + 1)
        for step in stack.prefix(depth) { path.append(step.codingKey) }
        for step in nested?.steps ?? [] { path.append(step.codingKey) }
        if let final { path.append(final.codingKey) }
        return path
    }
}

/// The steps of a nested position as an immutable list, sharing its outer steps with the enclosing position.
final class NestedSteps {
    let key: PathKey
    let outer: NestedSteps?
    /// The number of steps, this one included.
    let count: Int

    init(_ key: PathKey, after outer: NestedSteps?) {
        self.key = key
        self.outer = outer
        count = (outer?.count ?? 0) + 1
    }

    /// The steps, outermost first.
    var steps: [PathKey] {
        var steps: [PathKey] = []
        steps.reserveCapacity(count)
        var node: NestedSteps? = self
        while let current = node {
            steps.append(current.key)
            node = current.outer
        }
        return steps.reversed()
    }
}

extension Array {
    /// Drops the elements from index `newCount` on, one at a time: a path or stack usually loses one or two, for
    /// which `removeLast(_:)` (a general range replacement) costs far more.
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    mutating func truncate(to newCount: Int) {
        while count > newCount { removeLast() }
    }
}
