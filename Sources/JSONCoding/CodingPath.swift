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

/// Where a container sits: the first `depth` steps of its coder's path stack, then `suffix` and `last` (set only
/// for nested containers, which have no stack frame of their own; the first nested step is kept inline in
/// `last`, so a singly nested container allocates nothing). Materialized into `[CodingKey]` only on demand.
///
/// The stack prefix is valid while the container is used inside the `init(from:)` / `encode(to:)` call that
/// created it (the Codable contract); a container kept past that call may report a wrong path.
struct PathPosition {
    var depth: Int
    var suffix: [PathKey] = []
    var last: PathKey?

    init(depth: Int) {
        self.depth = depth
    }

    /// This position extended by `key` (for a nested container).
    func appending(_ key: PathKey) -> PathPosition {
        var copy = self
        if let last { copy.suffix.append(last) }
        copy.last = key
        return copy
    }

    /// Appends the steps after the stack prefix to `stack`.
    func pushSteps(onto stack: inout [PathKey]) {
        guard let last else { return }
        if !suffix.isEmpty { stack.append(contentsOf: suffix) }
        stack.append(last)
    }

    /// The full path, reading the stack prefix from `stack`, optionally followed by `final`.
    func codingPath(in stack: [PathKey], then final: PathKey? = nil) -> [any CodingKey] {
        var path: [any CodingKey] = []
        path.reserveCapacity(depth + suffix.count + 2)
        for step in stack.prefix(depth) { path.append(step.codingKey) }
        for step in suffix { path.append(step.codingKey) }
        if let last { path.append(last.codingKey) }
        if let final { path.append(final.codingKey) }
        return path
    }
}
