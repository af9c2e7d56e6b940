/// Recording container members as buffer ranges, and writing scalars.
extension BytesEncoder {
    /// Starts a member of `node`: a `,` when it directly follows the previous member, then `"key":` if keyed.
    /// The returned element's `end` must be set by the caller.
    func beginMember(of node: EncodingNode, key: String?) -> EncodedElement {
        precondition(!node.isSealed, "An encoding container was used after its value finished encoding.")
        var element = EncodedElement(start: 0, end: 0)
        if let last = node.elements.last, last.slot < 0, last.end == buffer.count {
            buffer.append(UInt8(ascii: ","))
            element.commaBefore = true
        }
        element.start = buffer.count
        if let key {
            JSONTextWriter.writeString(key, into: &buffer)
            buffer.append(UInt8(ascii: ":"))
        }
        return element
    }

    /// Records `element` (ending at the current end of the buffer unless `end` was set) as the next member.
    func endMember(_ element: EncodedElement, of node: EncodingNode, key: String?) {
        var element = element
        if element.slot < 0 { element.end = buffer.count }
        node.elements.append(element)
        if let key { node.keys.append(key) }
    }

    /// Records a member of `node` whose content (`slot`) is produced later.
    func addSlotMember(of node: EncodingNode, key: String?, _ makeSlot: () -> EncodingSlot) {
        var element = beginMember(of: node, key: key)
        element.end = buffer.count
        element.slot = node.slots.count
        node.slots.append(makeSlot())
        endMember(element, of: node, key: key)
    }

    /// `true` / `false`.
    func writeBool(_ value: Bool) {
        if value {
            buffer.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            buffer.append(contentsOf: [
                UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e"),
            ])
        }
    }

    /// `null`.
    func writeNull() {
        buffer.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    /// A finite `Double` as Foundation prints it.
    /// - Throws: `EncodingError.invalidValue` for NaN or ±infinity, with the path `position` + `key`.
    func writeDouble(_ value: Double, at position: PathPosition, _ key: PathKey?) throws {
        guard value.isFinite else { throw nonFinite(value, at: position, key) }
        JSONTextWriter.writeDouble(value, into: &buffer)
    }

    /// A finite `Float` as Foundation prints it.
    /// - Throws: `EncodingError.invalidValue` for NaN or ±infinity, with the path `position` + `key`.
    func writeFloat(_ value: Float, at position: PathPosition, _ key: PathKey?) throws {
        guard value.isFinite else { throw nonFinite(value, at: position, key) }
        JSONTextWriter.writeFloat(value, into: &buffer)
    }

    private func nonFinite<F: FloatingPoint>(_ value: F, at position: PathPosition, _ key: PathKey?) -> EncodingError {
        let name = value.isNaN ? "\(F.self).nan" : value < 0 ? "-\(F.self).infinity" : "\(F.self).infinity"
        return EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: position.codingPath(in: path, then: key),
                debugDescription: "Unable to encode \(name) directly in JSON."))
    }
}
