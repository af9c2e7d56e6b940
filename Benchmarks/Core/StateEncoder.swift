import Foundation

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

// MARK: - JSONBytesEncoder (module JSONCoding) goes here
//
// Once JSONCoding's `JSONBytesEncoder` lands: add "JSONCoding" to this target's dependencies in Package.swift,
// add `import JSONCoding` at the top of this file, write a `StateEncoder` conformance here, e.g.
//
//     struct JSONCodingStateEncoder: StateEncoder {
//         let name = "JSONCoding JSONBytesEncoder"
//         func byteCount<T: Encodable>(of value: T) throws -> Int { /* encode with JSONBytesEncoder, return count */ }
//     }
//
// and append `JSONCodingStateEncoder()` to `makeStateEncoders()` below. The table then gets one row per state for it.

/// The encoders measured by the encode-cost table, in table order (fresh instances on each call).
func makeStateEncoders() -> [any StateEncoder] {
    [
        FoundationStateEncoder()
        // JSONCodingStateEncoder(),  <- add here (see the MARK above)
    ]
}
