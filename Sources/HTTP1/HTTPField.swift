/// One header or trailer field: a name and its value (RFC 9110 §5).
///
/// The name keeps the spelling it arrived with; comparisons elsewhere in this module are ASCII
/// case-insensitive. The value carries no leading or trailing whitespace (RFC 9112 §5.1 OWS is trimmed
/// by the parser).
public struct HTTPField: Sendable, Equatable {
    /// The field name, e.g. `"Content-Type"` (RFC 9110 §5.1: a token).
    public var name: String
    /// The field value, e.g. `"application/json"`, without surrounding whitespace.
    public var value: String

    /// Creates a field.
    ///
    /// - Parameters:
    ///   - name: The field name (a token; not validated here).
    ///   - value: The field value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
