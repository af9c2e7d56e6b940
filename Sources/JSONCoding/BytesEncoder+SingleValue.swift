/// The encoder is the single-value container of the current level: one value per level, written in place.
extension BytesEncoder: SingleValueBytesWriter {
    /// The buffer offset where the level's single value starts.
    /// Encoding a second value, or a value after a container, is a programming error (as in Foundation).
    private func beginSingle() -> Int {
        guard case .empty = state.pointee.root else {
            preconditionFailure("Attempt to encode value through single value container when previously value already encoded.")
        }
        return state.pointee.bytes.count
    }

    func single(_ write: (BytesEncoder) throws -> Void) rethrows {
        let start = beginSingle()
        try write(self)
        state.pointee.root = .single(start..<state.pointee.bytes.count)
    }

    /// The level's value sits in the encoder's own frame.
    var singleValueAnchor: PathAnchor { .frame }
}

/// A single-value container writing into the main encoder's buffer: the encoder itself (one value per level) and
/// ``SuperEncoder`` share every `encode` overload; they differ only in how a value is begun and where it sits.
protocol SingleValueBytesWriter: SingleValueEncodingContainer {
    /// Where the value sits, for numbers' error paths and nested values.
    var singleValueAnchor: PathAnchor { get }
    /// Writes the one value of this container through the main encoder and records it.
    func single(_ write: (BytesEncoder) throws -> Void) rethrows
}

extension SingleValueBytesWriter {
    private func signed(_ value: Int64) { single { $0.writeInteger(value) } }
    private func unsigned(_ value: UInt64) { single { $0.writeInteger(value) } }

    func encodeNil() throws { single { $0.writeNull() } }
    func encode(_ value: Bool) throws { single { $0.writeBool(value) } }
    func encode(_ value: String) throws { single { $0.writeString(value) } }
    func encode(_ value: Double) throws { try single { try $0.writeDouble(value, in: singleValueAnchor, nil) } }
    func encode(_ value: Float) throws { try single { try $0.writeFloat(value, in: singleValueAnchor, nil) } }
    func encode(_ value: Int) throws { signed(Int64(value)) }
    func encode(_ value: Int8) throws { signed(Int64(value)) }
    func encode(_ value: Int16) throws { signed(Int64(value)) }
    func encode(_ value: Int32) throws { signed(Int64(value)) }
    func encode(_ value: Int64) throws { signed(value) }
    func encode(_ value: Int128) throws { single { $0.writeInteger(wide: value) } }
    func encode(_ value: UInt) throws { unsigned(UInt64(value)) }
    func encode(_ value: UInt8) throws { unsigned(UInt64(value)) }
    func encode(_ value: UInt16) throws { unsigned(UInt64(value)) }
    func encode(_ value: UInt32) throws { unsigned(UInt64(value)) }
    func encode(_ value: UInt64) throws { unsigned(value) }
    func encode(_ value: UInt128) throws { single { $0.writeInteger(wide: value) } }

    func encode<T: Encodable>(_ value: T) throws {
        try single { try $0.encodeValue(value, in: singleValueAnchor, nil) }
    }
}
