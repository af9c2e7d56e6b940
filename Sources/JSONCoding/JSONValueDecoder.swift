public import JSON

/// Decodes `Decodable` types from a parsed `JSONValue`, with the behaviour of Foundation's `JSONDecoder` under
/// its default strategies, but without re-parsing text or building dictionaries.
///
/// Conversions (as swift-foundation's `JSONDecoder`, checked against it in the tests):
/// - `Bool` only from `true` / `false`; `String` only from strings.
/// - Integers (`Int8` … `Int128`, `UInt8` … `UInt128`) from numbers that are exact integers in range, including
///   `1.0`, `1e2` and `-0`; `1.5`, `1e20` (for `Int`) and `300` (for `UInt8`) throw `.dataCorrupted`. See
///   `JSONNumber.integer(as:)` for the exact rules, which include Foundation's quirks above 2^53.
/// - `Float` / `Double` from any number that stays finite and does not underflow to zero (`1e39` as `Float`
///   throws `.dataCorrupted`).
/// - null for a non-optional value throws `.valueNotFound` (for `Bool`, Foundation's `.typeMismatch`);
///   a missing key throws `.keyNotFound`; `decodeIfPresent` gives nil for null or a missing key.
/// - `Date`: seconds since 2001-01-01 as a number (`.deferredToDate`); `Data`: a base64 string; `URL`: its
///   absolute string; `Decimal`: a number.
/// - Dictionaries keyed by `String` or `Int` are JSON objects (Int keys written as decimal strings).
///
/// Known difference: when the JSON text repeats an object key, `JSONValue(parsing:)` keeps the last value, while
/// Foundation's decoder keeps the first.
public struct JSONValueDecoder: Sendable {
    /// A decoder with Foundation's default strategies (the only ones supported).
    public init() {}

    /// Decodes `T` from an already parsed value.
    ///
    /// Coding paths in errors are built only when an error is thrown; unkeyed positions appear as `Index N` keys.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - value: the JSON value (RFC 8259) to read.
    /// - Returns: the decoded value.
    /// - Throws: `DecodingError` (`.typeMismatch`, `.keyNotFound`, `.valueNotFound`, `.dataCorrupted`) with the
    ///   coding path of the offending value, or any error thrown by `T.init(from:)`.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value).decodeRoot(type)
    }

    /// Parses `bytes` (UTF-8 JSON text, RFC 8259; nesting up to 512 levels) then decodes `T` from the value.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - bytes: the JSON text.
    /// - Returns: the decoded value.
    /// - Throws: `DecodingError.dataCorrupted` with an empty coding path whose `underlyingError` is the
    ///   `JSONParseError` when the text is not valid JSON; otherwise as `decode(_:from:)` for a `JSONValue`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "The given data was not valid JSON.", underlyingError: error))
        }
        return try decode(type, from: value)
    }
}

extension JSONValueDecoder {
    /// A `Decoder` reading `value` with an empty coding path, for callers that present their own `Decoder` and
    /// forward part of the value here (e.g. a Flux Standard Action's `payload`).
    ///
    /// The decoder is confined to the caller's thread; it may be kept and used repeatedly.
    /// - Parameter value: the JSON value to decode from.
    /// - Returns: a decoder with the semantics of `decode(_:from:)`.
    public func decoder(for value: JSONValue) -> any Decoder {
        ValueDecoder(value: value)
    }
}
