/// Turning a finished container's recorded members into its JSON text.
extension BytesEncoder {
    /// Produces the text of container record `index` at the end of the buffer (or closes it in place) and
    /// returns its range. Nested containers and super encoders are produced first. Keyed members are ordered by
    /// the UTF-8 bytes of their keys, as Foundation's `.sortedKeys`; when a key was encoded twice the last value
    /// wins.
    func serialize(_ index: Int) -> Range<Int> {
        let state = self.state
        state.pointee.nodes[index].isSealed = true
        if state.pointee.nodes[index].hasSlots { resolveSlots(of: index) }
        let isKeyed = state.pointee.nodes[index].isKeyed
        if isInPlace(index) {
            state.pointee.bytes.append(isKeyed ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            return state.pointee.nodes[index].openAt..<state.pointee.bytes.count
        }
        if isKeyed { sortMembers(of: index) }
        return assemble(index)
    }

    /// Appends `[`/`{`, the members of container `index` in list order separated by `,`, and `]`/`}` to the
    /// buffer, copying each member's bytes from earlier in the buffer; returns the new text's range.
    private func assemble(_ index: Int) -> Range<Int> {
        let state = self.state
        let isKeyed = state.pointee.nodes[index].isKeyed
        let start = state.pointee.bytes.count
        state.pointee.bytes.append(isKeyed ? UInt8(ascii: "{") : UInt8(ascii: "["))
        var member = state.pointee.nodes[index].first
        while member >= 0 {
            let element = state.pointee.elements[member]
            if member != state.pointee.nodes[index].first { state.pointee.bytes.append(UInt8(ascii: ",")) }
            state.pointee.bytes.appendCopy(of: element.start..<element.end)
            if element.slot >= 0 { state.pointee.bytes.appendCopy(of: element.content) }
            member = element.next
        }
        state.pointee.bytes.append(isKeyed ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        return start..<state.pointee.bytes.count
    }

    /// Produces the content of every slot member of container `index`, recording where it landed.
    private func resolveSlots(of index: Int) {
        var member = state.pointee.nodes[index].first
        while member >= 0 {
            let slot = state.pointee.elements[member].slot
            if slot >= 0 {
                state.pointee.elements[member].content = resolve(state.pointee.slots[slot])
            }
            member = state.pointee.elements[member].next
        }
    }

    /// The text range of a slot's content.
    private func resolve(_ slot: EncodingSlot) -> Range<Int> {
        switch slot {
        case .container(let index):
            return serialize(index)
        case .encoder(let encoder):
            switch encoder.root {
            case .empty:
                let start = state.pointee.bytes.count
                state.pointee.bytes.append(UInt8(ascii: "{"))
                state.pointee.bytes.append(UInt8(ascii: "}"))
                return start..<start + 2
            case .single(let range):
                return range
            case .container(let node):
                return serialize(node.index)
            }
        }
    }

    /// Whether the members already form the container's text right after its opening bracket: contiguous,
    /// comma-separated, in strictly ascending key order (keyed), and ending at the end of the buffer.
    private func isInPlace(_ index: Int) -> Bool {
        let state = self.state
        let isKeyed = state.pointee.nodes[index].isKeyed
        var expected = state.pointee.nodes[index].openAt + 1
        var previous = -1
        var member = state.pointee.nodes[index].first
        while member >= 0 {
            let element = state.pointee.elements[member]
            if previous >= 0 {
                guard element.commaBefore, element.start == expected + 1 else { return false }
                if isKeyed, compareKeys(previous, member) >= 0 { return false }
            } else {
                guard element.start == expected else { return false }
            }
            expected = element.end
            if element.slot >= 0 {
                guard element.content.lowerBound == expected else { return false }
                expected = element.content.upperBound
            }
            previous = member
            member = element.next
        }
        return expected == state.pointee.bytes.count
    }
}
