import Foundation
import JSONCoding

/// One JSON encoder under test: encodes a value to bytes and returns how many.
protocol StateEncoder {
    /// The name printed in the table.
    var name: String { get }
    /// Encodes `value` to JSON bytes and returns the byte count.
    func byteCount<T: Encodable>(of value: T) throws -> Int
}

/// Foundation's `JSONEncoder` with the server's output settings (`.sortedKeys`, `.withoutEscapingSlashes`),
/// created once and reused for every encode.
struct FoundationStateEncoder: StateEncoder {
    let name = "Foundation JSONEncoder [.sortedKeys, .withoutEscapingSlashes]"
    private let encoder: JSONEncoder

    init() {
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    func byteCount<T: Encodable>(of value: T) throws -> Int {
        try encoder.encode(value).count
    }
}

/// JSONCoding's `JSONBytesEncoder`: what the server encodes each new state with (same bytes as the row above).
struct JSONCodingStateEncoder: StateEncoder {
    let name = "JSONCoding JSONBytesEncoder (the server's)"

    func byteCount<T: Encodable>(of value: T) throws -> Int {
        try JSONBytesEncoder().encode(value).count
    }
}

/// The encoders measured by the encode-cost table, in table order (fresh instances on each call).
func makeStateEncoders() -> [any StateEncoder] {
    [FoundationStateEncoder(), JSONCodingStateEncoder()]
}
