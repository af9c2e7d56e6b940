/// Key order for keyed containers: Foundation's `.sortedKeys`, lexicographic by UTF-8 bytes.
extension BytesEncoder {
    /// Relinks the members of keyed container `index` in ascending key order, keeping only the last member of
    /// equal keys (a key encoded twice keeps its last value).
    func sortMembers(of index: Int) {
        let state = self.state
        var head: Int
        var sawEqualKeys = true
        if state.pointee.nodes[index].count > 16 {
            head = sortedByArray(from: state.pointee.nodes[index].first)
        } else {
            // Insertion sort into a new list, after every member with an equal key: stable.
            sawEqualKeys = false
            head = -1
            var member = state.pointee.nodes[index].first
            while member >= 0 {
                let next = state.pointee.elements[member].next
                let order = head < 0 ? -1 : compareKeys(member, head)
                if order < 0 {
                    state.pointee.elements[member].next = head
                    head = member
                } else {
                    if order == 0 { sawEqualKeys = true }
                    var cursor = head
                    while true {
                        let after = state.pointee.elements[cursor].next
                        if after < 0 { break }
                        let order = compareKeys(member, after)
                        if order < 0 { break }
                        if order == 0 { sawEqualKeys = true }
                        cursor = after
                    }
                    state.pointee.elements[member].next = state.pointee.elements[cursor].next
                    state.pointee.elements[cursor].next = member
                }
                member = next
            }
        }
        state.pointee.nodes[index].first = head
        if sawEqualKeys { dropRepeatedKeys(of: index) }
    }

    /// Unlinks every member of sorted container `index` whose successor has the same key.
    private func dropRepeatedKeys(of index: Int) {
        var kept = -1
        var last = -1
        var member = state.pointee.nodes[index].first
        while member >= 0 {
            let next = state.pointee.elements[member].next
            if next < 0 || compareKeys(member, next) != 0 {
                if last >= 0 { state.pointee.elements[last].next = member } else { kept = member }
                last = member
            }
            member = next
        }
        if last >= 0 { state.pointee.elements[last].next = -1 }
        state.pointee.nodes[index].first = kept
    }

    /// The list starting at `first`, sorted stably with the standard library's sort; returns the new head.
    private func sortedByArray(from first: Int) -> Int {
        var order: [Int] = []
        var member = first
        while member >= 0 {
            order.append(member)
            member = state.pointee.elements[member].next
        }
        // Member indices grow in encoding order, so they break ties stably (the last of equal keys last).
        order.sort { left, right in
            let order = self.compareKeys(left, right)
            return order != 0 ? order < 0 : left < right
        }
        for position in 0..<order.count {
            state.pointee.elements[order[position]].next = position + 1 < order.count ? order[position + 1] : -1
        }
        return order.first ?? -1
    }

    /// The order of two keyed members' keys (negative, zero, positive).
    func compareKeys(_ left: Int, _ right: Int) -> Int {
        let leftElement = state.pointee.elements[left]
        let rightElement = state.pointee.elements[right]
        if leftElement.escapedKey < 0, rightElement.escapedKey < 0 {
            // Unescaped keys are their own UTF-8 bytes in the buffer, between the quotes.
            let bytes = state.pointee.bytes.base
            let leftStart = leftElement.start + 1
            let rightStart = rightElement.start + 1
            let leftCount = leftElement.keyEnd - leftStart
            let rightCount = rightElement.keyEnd - rightStart
            let common = min(leftCount, rightCount)
            var offset = 0
            while offset < common {
                let leftByte = bytes[leftStart + offset]
                let rightByte = bytes[rightStart + offset]
                if leftByte != rightByte { return Int(leftByte) - Int(rightByte) }
                offset += 1
            }
            return leftCount - rightCount
        }
        return Self.compare(key(of: leftElement), key(of: rightElement))
    }

    /// A keyed member's key as a string.
    private func key(of element: EncodedElement) -> String {
        if element.escapedKey >= 0 { return state.pointee.escapedKeys[element.escapedKey] }
        let start = element.start + 1
        let text = UnsafeBufferPointer(start: state.pointee.bytes.base + start, count: element.keyEnd - start)
        return String(decoding: text, as: UTF8.self)
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
