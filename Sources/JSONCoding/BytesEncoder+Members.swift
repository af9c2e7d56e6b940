/// Recording container members as buffer ranges, and writing scalars.
extension BytesEncoder {
    /// Starts a keyed member of `node`: a `,` when it directly follows the previous member, then `"key":`.
    func beginMember(of node: NodeHandle, key: String) -> EncodedElement {
        let state = self.state
        var element = beginMember(of: node)
        if JSONTextWriter.writeString(key, into: &state.pointee.bytes) {
            element.escapedKey = state.pointee.escapedKeys.count
            state.pointee.escapedKeys.append(key)
        }
        element.keyEnd = state.pointee.bytes.count &- 1
        state.pointee.bytes.append(UInt8(ascii: ":"))
        return element
    }

    /// Starts an unkeyed member of `node`: a `,` when it directly follows the previous member.
    /// Using a container after the `encode(to:)` that created it returned is a programming error.
    func beginMember(of node: NodeHandle) -> EncodedElement {
        let state = self.state
        precondition(
            node.index < state.pointee.nodes.count && state.pointee.nodes[node.index].generation == node.generation
                && !state.pointee.nodes[node.index].isSealed,
            "An encoding container was used after its value finished encoding.")
        var element = EncodedElement(start: 0)
        let last = state.pointee.nodes[node.index].last
        if last >= 0, state.pointee.elements[last].slot < 0,
            state.pointee.elements[last].end == state.pointee.bytes.count
        {
            state.pointee.bytes.append(UInt8(ascii: ","))
            element.commaBefore = true
        }
        element.start = state.pointee.bytes.count
        return element
    }

    /// Records `element` (ending at the current end of the buffer unless it has a slot) as the next member.
    func endMember(_ element: EncodedElement, of node: NodeHandle) {
        let state = self.state
        var element = element
        if element.slot < 0 { element.end = state.pointee.bytes.count }
        let index = state.pointee.elements.append(element)
        let last = state.pointee.nodes[node.index].last
        if last >= 0 {
            state.pointee.elements[last].next = index
        } else {
            state.pointee.nodes[node.index].first = index
        }
        state.pointee.nodes[node.index].last = index
        state.pointee.nodes[node.index].count &+= 1
    }

    /// Records a member of `node` (keyed when `key` is not nil) whose content (`slot`) is produced later.
    func addSlotMember(of node: NodeHandle, key: String?, _ makeSlot: () -> EncodingSlot) {
        var element = if let key { beginMember(of: node, key: key) } else { beginMember(of: node) }
        element.end = state.pointee.bytes.count
        let slot = makeSlot()
        element.slot = state.pointee.slots.count
        state.pointee.slots.append(slot)
        state.pointee.nodes[node.index].hasSlots = true
        endMember(element, of: node)
    }

    /// Appends the output of `write` to the buffer.
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    func write(_ body: (inout ByteBuffer) throws -> Void) rethrows {
        try body(&state.pointee.bytes)
    }

    /// `true` / `false`.
    func writeBool(_ value: Bool) {
        JSONTextWriter.writeBool(value, into: &state.pointee.bytes)
    }

    /// `null`.
    func writeNull() {
        JSONTextWriter.writeNull(into: &state.pointee.bytes)
    }

    /// A signed integer in decimal.
    func writeInteger(_ value: Int64) {
        JSONTextWriter.writeInteger(value, into: &state.pointee.bytes)
    }

    /// An unsigned integer in decimal.
    func writeInteger(_ value: UInt64) {
        JSONTextWriter.writeInteger(value, into: &state.pointee.bytes)
    }

    /// A 128-bit integer in decimal.
    func writeInteger<T: FixedWidthInteger>(wide value: T) {
        JSONTextWriter.writeInteger(wide: value, into: &state.pointee.bytes)
    }

    /// A string literal.
    func writeString(_ value: String) {
        JSONTextWriter.writeString(value, into: &state.pointee.bytes)
    }

    /// A finite `Double` as Foundation prints it.
    /// - Throws: `EncodingError.invalidValue` for NaN or ±infinity, with the path of `anchor` + `key`.
    func writeDouble(_ value: Double, in anchor: PathAnchor, _ key: @autoclosure () -> PathKey?) throws {
        guard value.isFinite else { throw nonFinite(value, at: position(of: anchor), key()) }
        JSONTextWriter.writeDouble(value, into: &state.pointee.bytes)
    }

    /// A finite `Float` as Foundation prints it.
    /// - Throws: `EncodingError.invalidValue` for NaN or ±infinity, with the path of `anchor` + `key`.
    func writeFloat(_ value: Float, in anchor: PathAnchor, _ key: @autoclosure () -> PathKey?) throws {
        guard value.isFinite else { throw nonFinite(value, at: position(of: anchor), key()) }
        JSONTextWriter.writeFloat(value, into: &state.pointee.bytes)
    }

    func nonFinite<F: FloatingPoint>(_ value: F, at position: PathPosition, _ key: PathKey?) -> EncodingError {
        let name = value.isNaN ? "\(F.self).nan" : value < 0 ? "-\(F.self).infinity" : "\(F.self).infinity"
        return EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: position.codingPath(in: state.pointee.path, then: key),
                debugDescription: "Unable to encode \(name) directly in JSON."))
    }
}
