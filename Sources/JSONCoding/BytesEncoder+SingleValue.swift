/// The encoder is the single-value container of the current level: one value per level, written in place.
extension BytesEncoder: SingleValueEncodingContainer {
    /// The buffer offset where the level's single value starts.
    /// Encoding a second value, or a value after a container, is a programming error (as in Foundation).
    private func beginSingle() -> Int {
        guard case .empty = root else {
            preconditionFailure("Attempt to encode value through single value container when previously value already encoded.")
        }
        return buffer.count
    }

    private func single(_ write: (BytesEncoder) throws -> Void) rethrows {
        let start = beginSingle()
        try write(self)
        root = .single(start..<buffer.count)
    }

    private func integer<T: FixedWidthInteger>(_ value: T) {
        single { JSONTextWriter.writeInteger(value, into: &$0.buffer) }
    }

    func encodeNil() throws { single { $0.writeNull() } }
    func encode(_ value: Bool) throws { single { $0.writeBool(value) } }
    func encode(_ value: String) throws { single { JSONTextWriter.writeString(value, into: &$0.buffer) } }
    func encode(_ value: Double) throws { try single { try $0.writeDouble(value, at: $0.framePosition, nil) } }
    func encode(_ value: Float) throws { try single { try $0.writeFloat(value, at: $0.framePosition, nil) } }
    func encode(_ value: Int) throws { integer(value) }
    func encode(_ value: Int8) throws { integer(value) }
    func encode(_ value: Int16) throws { integer(value) }
    func encode(_ value: Int32) throws { integer(value) }
    func encode(_ value: Int64) throws { integer(value) }
    func encode(_ value: Int128) throws { integer(value) }
    func encode(_ value: UInt) throws { integer(value) }
    func encode(_ value: UInt8) throws { integer(value) }
    func encode(_ value: UInt16) throws { integer(value) }
    func encode(_ value: UInt32) throws { integer(value) }
    func encode(_ value: UInt64) throws { integer(value) }
    func encode(_ value: UInt128) throws { integer(value) }

    func encode<T: Encodable>(_ value: T) throws {
        try single { try $0.encodeValue(value, at: $0.framePosition, nil, base: $0.levelBase) }
    }
}
