/// Recording container members as buffer ranges, and writing scalars.
extension BytesEncoder {
    /// Starts a member of `node`: a `,` when it directly follows the previous member, then `"key":` if keyed.
    /// Using a container after the `encode(to:)` that created it returned is a programming error.
    func beginMember(of node: NodeHandle, key: String?) -> EncodedElement {
        let state = self.state
        precondition(
            node.index < state.pointee.nodes.count && state.pointee.nodes[node.index].generation == node.generation
                && !state.pointee.nodes[node.index].isSealed,
            "An encoding container was used after its value finished encoding.")
        var element = EncodedElement(start: 0)
        let last = state.pointee.nodes[node.index].last
        if last >= 0, state.pointee.elements[last].slot < 0, state.pointee.elements[last].end == state.pointee.buffer.count {
            state.pointee.buffer.append(UInt8(ascii: ","))
            element.commaBefore = true
        }
        element.start = state.pointee.buffer.count
        if let key {
            JSONTextWriter.writeString(key, into: &state.pointee.buffer)
            state.pointee.buffer.append(UInt8(ascii: ":"))
            element.key = key
            element.keyPrefix = Self.sortPrefix(key)
        }
        return element
    }

    /// Records `element` (ending at the current end of the buffer unless it has a slot) as the next member.
    func endMember(_ element: EncodedElement, of node: NodeHandle) {
        let state = self.state
        var element = element
        if element.slot < 0 { element.end = state.pointee.buffer.count }
        let index = state.pointee.elements.count
        state.pointee.elements.append(element)
        let last = state.pointee.nodes[node.index].last
        if last >= 0 {
            state.pointee.elements[last].next = index
        } else {
            state.pointee.nodes[node.index].first = index
        }
        state.pointee.nodes[node.index].last = index
        state.pointee.nodes[node.index].count += 1
    }

    /// Records a member of `node` whose content (`slot`) is produced later.
    func addSlotMember(of node: NodeHandle, key: String?, _ makeSlot: () -> EncodingSlot) {
        var element = beginMember(of: node, key: key)
        element.end = state.pointee.buffer.count
        let slot = makeSlot()
        element.slot = state.pointee.slots.count
        state.pointee.slots.append(slot)
        endMember(element, of: node)
    }

    /// Appends the output of `write` to the buffer.
    @inline(__always)
    func write(_ body: (inout [UInt8]) throws -> Void) rethrows {
        try body(&state.pointee.buffer)
    }

    /// `true` / `false`.
    func writeBool(_ value: Bool) {
        JSONTextWriter.writeBool(value, into: &state.pointee.buffer)
    }

    /// `null`.
    func writeNull() {
        JSONTextWriter.writeNull(into: &state.pointee.buffer)
    }

    /// A finite `Double` as Foundation prints it.
    /// - Throws: `EncodingError.invalidValue` for NaN or ±infinity, with the path of `anchor` + `key`.
    func writeDouble(_ value: Double, in anchor: PathAnchor, _ key: PathKey?) throws {
        guard value.isFinite else { throw nonFinite(value, at: position(of: anchor), key) }
        JSONTextWriter.writeDouble(value, into: &state.pointee.buffer)
    }

    /// A finite `Float` as Foundation prints it.
    /// - Throws: `EncodingError.invalidValue` for NaN or ±infinity, with the path of `anchor` + `key`.
    func writeFloat(_ value: Float, in anchor: PathAnchor, _ key: PathKey?) throws {
        guard value.isFinite else { throw nonFinite(value, at: position(of: anchor), key) }
        JSONTextWriter.writeFloat(value, into: &state.pointee.buffer)
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
