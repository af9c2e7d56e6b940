/// Turning a finished container's recorded members into its JSON text.
extension BytesEncoder {
    /// Produces the text of container record `index` at the end of the buffer (or closes it in place) and
    /// returns its range. Nested containers and super encoders are produced first. Keyed members are ordered by
    /// the UTF-8 bytes of their keys, as Foundation's `.sortedKeys`; when a key was encoded twice the last value
    /// wins.
    func serialize(_ index: Int) -> Range<Int> {
        let state = self.state
        state.pointee.nodes[index].isSealed = true
        resolveSlots(of: index)
        let isKeyed = state.pointee.nodes[index].isKeyed
        let close = isKeyed ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if isInPlace(index) {
            state.pointee.buffer.append(close)
            return state.pointee.nodes[index].openAt..<state.pointee.buffer.count
        }
        collectOrder(of: index)
        return assemble(isKeyed: isKeyed)
    }

    /// Appends `[`/`{`, the members listed in `order` separated by `,`, and `]`/`}` to the buffer, copying each
    /// member's bytes from earlier in the buffer; returns the new text's range.
    private func assemble(isKeyed: Bool) -> Range<Int> {
        let state = self.state
        var size = 2 + max(state.pointee.order.count - 1, 0)
        for member in state.pointee.order {
            size += state.pointee.elements[member].end - state.pointee.elements[member].start
            size += state.pointee.elements[member].content.count
        }
        let start = state.pointee.buffer.count
        state.pointee.buffer.append(contentsOf: repeatElement(0, count: size))
        state.pointee.buffer.withUnsafeMutableBufferPointer { bytes in
            var cursor = start
            func put(_ byte: UInt8) {
                bytes[cursor] = byte
                cursor += 1
            }
            func copy(_ range: Range<Int>) {
                guard !range.isEmpty else { return }
                (bytes.baseAddress! + cursor).update(from: bytes.baseAddress! + range.lowerBound, count: range.count)
                cursor += range.count
            }
            put(isKeyed ? UInt8(ascii: "{") : UInt8(ascii: "["))
            for (written, member) in state.pointee.order.enumerated() {
                if written > 0 { put(UInt8(ascii: ",")) }
                copy(state.pointee.elements[member].start..<state.pointee.elements[member].end)
                if state.pointee.elements[member].slot >= 0 { copy(state.pointee.elements[member].content) }
            }
            put(isKeyed ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
        return start..<state.pointee.buffer.count
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
                let start = state.pointee.buffer.count
                state.pointee.buffer.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
                return start..<start + 2
            case .single(let range):
                return range
            case .container(let node):
                return serialize(node.index)
            }
        }
    }

    /// Whether the members already form the container's text right after its opening bracket: contiguous,
    /// comma-separated, in sorted key order (keyed), and ending at the end of the buffer.
    private func isInPlace(_ index: Int) -> Bool {
        let state = self.state
        let isKeyed = state.pointee.nodes[index].isKeyed
        var expected = state.pointee.nodes[index].openAt + 1
        var previous = -1
        var member = state.pointee.nodes[index].first
        while member >= 0 {
            let start = state.pointee.elements[member].start
            if previous >= 0 {
                guard state.pointee.elements[member].commaBefore, start == expected + 1 else { return false }
                if isKeyed, compareKeys(previous, member) >= 0 {
                    return false
                }
            } else {
                guard start == expected else { return false }
            }
            expected = state.pointee.elements[member].end
            if state.pointee.elements[member].slot >= 0 {
                let content = state.pointee.elements[member].content
                guard content.lowerBound == expected else { return false }
                expected = content.upperBound
            }
            previous = member
            member = state.pointee.elements[member].next
        }
        return expected == state.pointee.buffer.count
    }

    /// Fills `order` with container `index`'s members in output order: as encoded (unkeyed), or by ascending
    /// key keeping only the last of equal keys (keyed).
    private func collectOrder(of index: Int) {
        let state = self.state
        state.pointee.order.removeAll(keepingCapacity: true)
        var member = state.pointee.nodes[index].first
        while member >= 0 {
            state.pointee.order.append(member)
            member = state.pointee.elements[member].next
        }
        guard state.pointee.nodes[index].isKeyed else { return }
        let count = state.pointee.order.count
        if count > 16 {
            // Member indices grow in encoding order, so they break ties stably (the last of equal keys last).
            state.pointee.order.sort { left, right in
                let order = self.compareKeys(left, right)
                return order != 0 ? order < 0 : left < right
            }
        } else {
            // Insertion sort for the usual small container; it is stable too.
            var sorted = 1
            while sorted < count {
                let moving = state.pointee.order[sorted]
                var slot = sorted
                while slot > 0,
                    compareKeys(state.pointee.order[slot - 1], moving) > 0
                {
                    state.pointee.order[slot] = state.pointee.order[slot - 1]
                    slot -= 1
                }
                state.pointee.order[slot] = moving
                sorted += 1
            }
        }
        var kept = 0
        for position in 0..<count {
            let member = state.pointee.order[position]
            if position + 1 < count,
                compareKeys(member, state.pointee.order[position + 1]) == 0
            {
                continue
            }
            state.pointee.order[kept] = member
            kept += 1
        }
        state.pointee.order.removeLast(count - kept)
    }

    /// The order of two members' keys (negative, zero, positive), by prefix first.
    private func compareKeys(_ left: Int, _ right: Int) -> Int {
        let leftPrefix = state.pointee.elements[left].keyPrefix
        let rightPrefix = state.pointee.elements[right].keyPrefix
        if leftPrefix != rightPrefix { return leftPrefix < rightPrefix ? -1 : 1 }
        return Self.compare(state.pointee.elements[left].key, state.pointee.elements[right].key)
    }

    /// The first 8 UTF-8 bytes of `key`, big-endian, zero-padded (a shorter key sorts first or ties).
    static func sortPrefix(_ key: String) -> UInt64 {
        var prefix: UInt64 = 0
        var taken = 0
        for byte in key.utf8 {
            prefix = prefix << 8 | UInt64(byte)
            taken += 1
            if taken == 8 { break }
        }
        return taken == 0 ? 0 : prefix << (8 * UInt64(8 - taken))
    }

    /// Foundation's `.sortedKeys` order: lexicographic by UTF-8 bytes (= Unicode scalar order).
    /// Returns a negative number, zero or a positive number.
    static func compare(_ left: String, _ right: String) -> Int {
        var left = left
        var right = right
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                let common = min(leftBytes.count, rightBytes.count)
                var index = 0
                while index < common {
                    if leftBytes[index] != rightBytes[index] {
                        return Int(leftBytes[index]) - Int(rightBytes[index])
                    }
                    index += 1
                }
                return leftBytes.count - rightBytes.count
            }
        }
    }
}
