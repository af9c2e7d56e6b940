/// The fields of a message in arrival order, with case-insensitive lookup (RFC 9110 §5.1–§5.3).
///
/// Repeated names stay as separate entries; ``values(_:)`` returns all of them in order, which is how a
/// comma-separated list split across lines should be read (RFC 9110 §5.3).
public struct HTTPFields: Sendable, Equatable, Sequence {
    private var storage: [HTTPField]
    /// One bit per name length present (``NameMask``): a lookup of a name whose bit is clear answers nil without
    /// comparing any name. Most lookups of a request are of fields it does not have (`Idempotency-Key`,
    /// `X-Request-Id`, `Prefer`, `Origin`…): `scripts/check-hot-path`, 30,941 → 30,782 instructions per `POST`.
    private var names: NameMask

    /// Creates a field list.
    ///
    /// - Parameter fields: The fields in the order they should be kept.
    public init(_ fields: [HTTPField] = []) {
        storage = fields
        names = NameMask(fields)
    }

    /// The number of field lines (a repeated name counts once per line).
    public var count: Int { storage.count }

    /// The value of the first field called `name` (ASCII case-insensitive), or `nil` when there is none.
    public subscript(name: String) -> String? {
        guard names.mayContain(name) else { return nil }
        // By index, so each field's name is compared in place (`first(where:)` copies every field it passes, a
        // retain and a release for each of its strings on the heap).
        for index in storage.indices where asciiCaseInsensitiveEqual(storage[index].name, name) {
            return storage[index].value
        }
        return nil
    }

    /// Every value of the fields called `name` (ASCII case-insensitive), in arrival order; empty when absent.
    public func values(_ name: String) -> [String] {
        guard names.mayContain(name) else { return [] }
        return storage.compactMap { asciiCaseInsensitiveEqual($0.name, name) ? $0.value : nil }
    }

    /// How many field lines are called `name` (ASCII case-insensitive), without building a list.
    public func count(of name: String) -> Int {
        guard names.mayContain(name) else { return 0 }
        var count = 0
        for index in storage.indices where asciiCaseInsensitiveEqual(storage[index].name, name) { count += 1 }
        return count
    }

    /// Whether any value of `name`, read as a comma-separated list, holds `token`.
    ///
    /// Elements are trimmed of spaces and horizontal tabs and compared ASCII case-insensitively, so
    /// `containsToken("upgrade", in: "Connection")` is true for `Connection: keep-alive, Upgrade`
    /// (RFC 9110 §5.6.1 list syntax, §7.6.1 Connection).
    public func containsToken(_ token: String, in name: String) -> Bool {
        guard names.mayContain(name) else { return false }
        let wanted = trimmingOWS(token.utf8)
        for field in storage where asciiCaseInsensitiveEqual(field.name, name) {
            for element in field.value.utf8.split(separator: UInt8(ascii: ",")) {
                if asciiCaseInsensitiveEqual(trimmingOWS(element), wanted) { return true }
            }
        }
        return false
    }

    /// Appends a field at the end.
    mutating func append(_ field: HTTPField) {
        storage.append(field)
        names.insert(field.name)
    }

    /// An iterator over the fields in arrival order.
    public func makeIterator() -> IndexingIterator<[HTTPField]> {
        storage.makeIterator()
    }
}

/// A 64-bit set of field names by their length in bytes (modulo 64): a clear bit means no field of that name is
/// present; a set bit means one may be (names of one length share it, and are then compared as before). The length
/// alone, not a hash of the bytes: it costs a few instructions (a first letter read through `String.UTF8View` cost
/// about 200 per lookup, callgrind), and the names a request sends seldom share a length with the ones looked up.
///
/// ## Thread safety
/// A value type.
struct NameMask: Sendable, Equatable {
    private var bits: UInt64 = 0

    init(_ fields: [HTTPField]) {
        for field in fields { insert(field.name) }
    }

    mutating func insert(_ name: String) {
        bits |= Self.bit(name)
    }

    func mayContain(_ name: String) -> Bool {
        bits & Self.bit(name) != 0
    }

    @inline(__always)
    private static func bit(_ name: String) -> UInt64 {
        1 << (UInt64(truncatingIfNeeded: name.utf8.count) & 63)
    }
}
