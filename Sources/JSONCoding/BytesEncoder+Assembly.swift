/// Turning a finished container's recorded members into its JSON text.
extension BytesEncoder {
    /// Produces `node`'s text at the end of the buffer (or closes it in place) and returns its range.
    /// Nested containers and super encoders are produced first. Keyed members are ordered by the UTF-8 bytes of
    /// their keys, as Foundation's `.sortedKeys`; when a key was encoded twice the last value wins.
    func serialize(_ node: EncodingNode) -> Range<Int> {
        node.isSealed = true
        let resolved = node.slots.isEmpty ? [] : node.slots.map(resolve)
        let close = node.isKeyed ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if isInPlace(node, resolved) {
            buffer.append(close)
            return node.openAt..<buffer.count
        }
        let order = node.isKeyed ? Self.sortedOrder(node.keys) : Array(node.elements.indices)
        assembly.removeAll(keepingCapacity: true)
        assembly.append(node.isKeyed ? UInt8(ascii: "{") : UInt8(ascii: "["))
        buffer.withUnsafeBufferPointer { source in
            for (written, index) in order.enumerated() {
                if written > 0 { assembly.append(UInt8(ascii: ",")) }
                let element = node.elements[index]
                assembly.append(contentsOf: UnsafeBufferPointer(rebasing: source[element.start..<element.end]))
                if element.slot >= 0 {
                    assembly.append(contentsOf: UnsafeBufferPointer(rebasing: source[resolved[element.slot]]))
                }
            }
        }
        assembly.append(close)
        let start = buffer.count
        buffer.append(contentsOf: assembly)
        return start..<buffer.count
    }

    /// The text range of a slot's content.
    private func resolve(_ slot: EncodingSlot) -> Range<Int> {
        switch slot {
        case .container(let node):
            return serialize(node)
        case .encoder(let encoder):
            switch encoder.root {
            case .empty:
                let start = buffer.count
                buffer.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
                return start..<buffer.count
            case .single(let range):
                return range
            case .container(let node):
                return serialize(node)
            }
        }
    }

    /// Whether the members already form the container's text right after its opening bracket: contiguous,
    /// comma-separated, in sorted key order (keyed), and ending at the end of the buffer.
    private func isInPlace(_ node: EncodingNode, _ resolved: [Range<Int>]) -> Bool {
        var expected = node.openAt + 1
        for index in node.elements.indices {
            let element = node.elements[index]
            if index > 0 {
                guard element.commaBefore, element.start == expected + 1 else { return false }
                if node.isKeyed, !Self.precedes(node.keys[index - 1], node.keys[index]) { return false }
            } else {
                guard element.start == expected else { return false }
            }
            expected = element.end
            if element.slot >= 0 {
                let content = resolved[element.slot]
                guard content.lowerBound == element.end else { return false }
                expected = content.upperBound
            }
        }
        return expected == buffer.count
    }

    /// Member indices in ascending key order; of equal keys only the last encoded is kept.
    static func sortedOrder(_ keys: [String]) -> [Int] {
        var order = Array(keys.indices)
        order.sort { left, right in
            if precedes(keys[left], keys[right]) { return true }
            if precedes(keys[right], keys[left]) { return false }
            return left < right
        }
        var kept: [Int] = []
        kept.reserveCapacity(order.count)
        for (position, index) in order.enumerated() {
            if position + 1 < order.count, keys[index].utf8.elementsEqual(keys[order[position + 1]].utf8) { continue }
            kept.append(index)
        }
        return kept
    }

    /// Foundation's `.sortedKeys` order: lexicographic by UTF-8 bytes (= Unicode scalar order).
    static func precedes(_ left: String, _ right: String) -> Bool {
        left.utf8.lexicographicallyPrecedes(right.utf8)
    }
}
