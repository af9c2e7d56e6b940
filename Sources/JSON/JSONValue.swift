/// A JSON value (RFC 8259 §3).
///
/// Objects keep their members in the order they were parsed or inserted (see `JSONObject`), but equality and
/// hashing ignore member order. Numbers keep their exact text (see `JSONNumber`), so `1.0`, `1` and
/// `123456789012345678901234567890` serialize back byte for byte; number equality is by numeric value.
///
/// Parse with `init(parsing:maxDepth:)`, serialize with `serialized(sortedKeys:)`, address sub-values with
/// `subscript(pointer:)` (RFC 6901) and compare or patch versions with `JSONPatch` (RFC 6902).
public enum JSONValue: Sendable, Hashable {
    /// The literal `null`.
    case null
    /// The literals `true` and `false`.
    case bool(Bool)
    /// A number, kept as its JSON text (RFC 8259 §6).
    case number(JSONNumber)
    /// A string of Unicode scalars (RFC 8259 §7).
    case string(String)
    /// An ordered list of values (RFC 8259 §5).
    case array([JSONValue])
    /// An ordered collection of uniquely named members (RFC 8259 §4).
    case object(JSONObject)
}

extension JSONValue {
    /// The array elements when this is `.array`, else nil.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The object when this is `.object`, else nil.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The string when this is `.string`, else nil.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number when this is `.number`, else nil.
    public var numberValue: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The Boolean when this is `.bool`, else nil.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
