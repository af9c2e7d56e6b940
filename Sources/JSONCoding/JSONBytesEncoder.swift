/// Encodes `Encodable` values to compact JSON text (RFC 8259), byte for byte what Foundation's `JSONEncoder`
/// writes with `outputFormatting = [.sortedKeys, .withoutEscapingSlashes]` and default strategies, without
/// building an intermediate tree: members are written into one buffer as they are encoded and each object's
/// members are sorted when its `encode(to:)` returns.
///
/// Output rules (checked against Foundation in the tests):
/// - object keys in ascending order of their UTF-8 bytes (`"10"` < `"9"` < `"A"` < `"_"` < `"a"` < `"é"`);
///   a key encoded twice keeps its last value; `encodeIfPresent(nil)` omits the key, `encodeNil` writes `null`;
/// - strings: `"` and `\` escaped, `\b \f \n \r \t`, other control characters as `\u00xx`; `/` and non-ASCII
///   unescaped (raw UTF-8);
/// - integers of every width in decimal; `Double` / `Float` as Swift's `description` without a trailing `.0`
///   (`1`, `0.1`, `1e-07`, `1e+21`, `-0`, Float `0.1`);
/// - a nested value that encodes nothing is `{}` (at the top level it is an error); any top-level value (a bare `Int` or `String`) is allowed;
/// - `Date` as seconds since 2001-01-01 (`.deferredToDate`), `Data` as base64, `URL` as its absolute string,
///   `Decimal` as a number.
public struct JSONBytesEncoder: Sendable {
    /// An encoder with Foundation's default strategies plus sorted keys and unescaped slashes.
    public init() {}

    /// Encodes `value` as compact JSON text with object keys sorted.
    /// - Parameter value: the value to encode.
    /// - Returns: the UTF-8 JSON text.
    /// - Throws: `EncodingError.invalidValue` for a non-finite `Float` / `Double` (with its coding path) or for
    ///   containers nested 512 or more deep (Foundation's writer limit) or a top-level value that encodes
    ///   nothing; any error thrown by `encode(to:)`.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = BytesEncoder()
        try Self.run(value, with: encoder)
        return encoder.output
    }

    /// Encodes `value` with `encoder` (fresh) and reports the errors found along the way, as ``encode(_:)``.
    static func run<T: Encodable>(_ value: T, with encoder: BytesEncoder) throws {
        try encoder.encodeRoot(value)
        if encoder.state.pointee.topLevelWasEmpty {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        if encoder.state.pointee.depthExceeded {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [], debugDescription: "Containers nested 512 or more deep cannot be written as JSON."))
        }
    }
}
