extension ChunkedArray: RandomAccessCollection, MutableCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The element at `index` (0 ≤ `index` < ``count``). Writing copies its chunk first when the chunk is shared.
    public subscript(index: Int) -> Element {
        get {
            let (chunk, offset) = locate(index)
            return chunks[chunk].elements[offset]
        }
        _modify {
            let (chunk, offset) = locate(index)
            if !isKnownUniquelyReferenced(&chunks[chunk]) {
                chunks[chunk] = ChunkedArrayChunk(chunks[chunk].elements)
            }
            yield &chunks[chunk].elements[offset]
        }
    }
}

extension ChunkedArray: RangeReplaceableCollection {
    /// Replaces the elements in `subrange` with `newElements`, writing only the chunks that hold `subrange` (or
    /// the last chunk, for an append): their elements and the new ones are regrouped into chunks of at most
    /// ``chunkCapacity``. Later chunks are kept as they are (their indices shift; their boxes and JSON do not).
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Element {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= count, "ChunkedArray range out of bounds")
        if subrange.isEmpty, newElements.isEmpty { return }
        // An append after a full last chunk starts new chunks and leaves the last one as it is.
        if subrange.lowerBound == count, chunks.last.map({ $0.elements.count >= Self.chunkCapacity }) ?? true {
            let first = chunks.count
            chunks += Self.regroup(Array(newElements))
            restart(from: first)
            return
        }
        let firstChunk: Int
        let firstOffset: Int
        if subrange.lowerBound == count {
            firstChunk = chunks.count - 1
            firstOffset = chunks[firstChunk].elements.count
        } else {
            (firstChunk, firstOffset) = locate(subrange.lowerBound)
        }
        let (lastChunk, lastEnd) =
            subrange.isEmpty ? (firstChunk, firstOffset) : { let (c, o) = locate(subrange.upperBound - 1); return (c, o + 1) }()
        var region = Array(chunks[firstChunk].elements[..<firstOffset])
        region += newElements
        region += chunks[lastChunk].elements[lastEnd...]
        chunks.replaceSubrange(firstChunk...lastChunk, with: Self.regroup(region))
        restart(from: firstChunk)
    }

    /// Removes the elements that satisfy `shouldBeRemoved`, writing only the chunks that held one.
    public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        var first: Int?
        var index = 0
        while index < chunks.count {
            let kept = try chunks[index].elements.filter { try !shouldBeRemoved($0) }
            if kept.count != chunks[index].elements.count {
                first = first ?? index
                if kept.isEmpty {
                    chunks.remove(at: index)
                    continue
                }
                chunks[index] = ChunkedArrayChunk(kept)
            }
            index += 1
        }
        if let first { restart(from: first) }
    }

    /// `elements` in as few chunks as fit, of even sizes (an insert into a full chunk gives two half-full ones, so
    /// the next inserts there copy half a chunk).
    static func regroup(_ elements: [Element]) -> [ChunkedArrayChunk<Element>] {
        guard !elements.isEmpty else { return [] }
        let pieces = (elements.count + chunkCapacity - 1) / chunkCapacity
        var result: [ChunkedArrayChunk<Element>] = []
        result.reserveCapacity(pieces)
        var at = 0
        for piece in 0..<pieces {
            let end = elements.count * (piece + 1) / pieces
            result.append(ChunkedArrayChunk(Array(elements[at..<end])))
            at = end
        }
        return result
    }
}

extension ChunkedArray: Equatable where Element: Equatable {
    /// Element by element; a run where both sides hold the same chunk box at the same index is skipped without
    /// comparing its elements.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var left = 0
        var right = 0
        while left < lhs.chunks.count, right < rhs.chunks.count {
            let a = lhs.chunks[left]
            let b = rhs.chunks[right]
            if a === b, lhs.starts[left] == rhs.starts[right] {
                left += 1
                right += 1
                continue
            }
            // Compare the overlap of the two chunks, then step past whichever ends first.
            let start = Swift.max(lhs.starts[left], rhs.starts[right])
            let end = Swift.min(lhs.starts[left] + a.elements.count, rhs.starts[right] + b.elements.count)
            for index in start..<end
            where a.elements[index - lhs.starts[left]] != b.elements[index - rhs.starts[right]] {
                return false
            }
            if lhs.starts[left] + a.elements.count == end { left += 1 }
            if rhs.starts[right] + b.elements.count == end { right += 1 }
        }
        return true
    }
}

extension ChunkedArray: Hashable where Element: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}
