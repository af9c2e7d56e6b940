import JSON

extension JSONIncrementalEncoding {
    /// RFC 6902 (§4) operations that turn the value `old` encoded into the value `new` encoded, found from how both
    /// were put together rather than by parsing and diffing them: chunks that are the same box in both are skipped,
    /// the elements of the others are compared by their JSON text (sorted keys: equal values have equal bytes) and
    /// each differing one is replaced, added (at its index, or `-` at the end) or removed, at its JSON Pointer
    /// (RFC 6901, e.g. `/items/123`). What lies outside the chunked arrays (the skeleton) is diffed with
    /// `JSONPatch.diff`, which is small when the arrays hold the bulk. Work is about the size of the changed chunks,
    /// the skeleton, and one pass over the chunk lists.
    ///
    /// Applying the result to `old`'s value gives a value equal to `new`'s (checked against `JSONPatch.diff` in the
    /// tests); the operations may differ from what `JSONPatch.diff` emits (e.g. it replaces a whole array past
    /// half its elements changed).
    ///
    /// - Returns: the operations as a compact JSON array (`[]` when nothing changed), or nil when this cannot tell:
    ///   either value was encoded plainly, their chunked arrays are not at the same places, or the skeleton's diff
    ///   touches a container holding a chunked array (e.g. a whole array replaced, or an element inserted before it
    ///   in an enclosing array). Use `JSONPatch.diff` of the parsed values then.
    public static func patch(from old: Self, to new: Self) -> [UInt8]? {
        guard let oldSkeleton = old.skeleton, let newSkeleton = new.skeleton, old.arrays.count == new.arrays.count else {
            return nil
        }
        for (before, after) in zip(old.arrays, new.arrays) where before.tokens != after.tokens { return nil }
        var output: [UInt8] = [UInt8(ascii: "[")]
        if oldSkeleton != newSkeleton {
            guard let from = try? JSONValue(parsing: old.parsableSkeleton()),
                let to = try? JSONValue(parsing: new.parsableSkeleton())
            else { return nil }
            let ops = JSONPatch.diff(from: from, to: to)
            let places = new.arrays.map(\.tokens)
            for op in ops where touches(op.path.tokens, places, in: from) { return nil }
            if !ops.isEmpty { output += JSONPatch.serialize(ops).dropFirst().dropLast() }
        }
        for (before, after) in zip(old.arrays, new.arrays) { appendOps(from: before, to: after, into: &output) }
        output.append(UInt8(ascii: "]"))
        return output
    }

    /// Whether an operation of the skeleton's diff at `path` reaches a chunked array at one of `places`: it
    /// replaces or removes a container holding one, or adds or removes an element of an enclosing JSON array
    /// (which shifts the indices in the array's pointer).
    private static func touches(_ path: [String], _ places: [[String]], in from: JSONValue) -> Bool {
        for place in places {
            if place.starts(with: path) { return true }
            let parent = path.dropLast()
            if place.count > parent.count, place.starts(with: parent),
                case .array = from[pointer: JSONPointer(tokens: Array(parent))]
            {
                return true
            }
        }
        return false
    }

    /// Appends the operations for one chunked array (each preceded by `,` unless it is the first in `output`).
    private static func appendOps(from old: ChunkedArrayTrace, to new: ChunkedArrayTrace, into output: inout [UInt8]) {
        let before = old.chunks
        let after = new.chunks
        var prefix = 0
        while prefix < before.count, prefix < after.count, before[prefix].box === after[prefix].box { prefix += 1 }
        if prefix == before.count, prefix == after.count { return }
        var suffix = 0
        while suffix < before.count - prefix, suffix < after.count - prefix,
            before[before.count - 1 - suffix].box === after[after.count - 1 - suffix].box
        {
            suffix += 1
        }
        var start = 0
        for chunk in before[..<prefix] { start += chunk.encoded.count }
        var length = start
        for chunk in before[prefix...] { length += chunk.encoded.count }
        func elements(_ chunks: ArraySlice<(box: ChunkIdentity, encoded: JSONEncodedChunk)>) -> [ArraySlice<UInt8>] {
            var result: [ArraySlice<UInt8>] = []
            for chunk in chunks { for index in 0..<chunk.encoded.count { result.append(chunk.encoded.element(index)) } }
            return result
        }
        var removed = elements(before[prefix..<(before.count - suffix)])[...]
        var added = elements(after[prefix..<(after.count - suffix)])[...]
        while let first = removed.first, let other = added.first, first == other {
            removed = removed.dropFirst()
            added = added.dropFirst()
            start += 1
        }
        while let last = removed.last, let other = added.last, last == other {
            removed = removed.dropLast()
            added = added.dropLast()
        }
        let place = JSONPointer(tokens: old.tokens).description
        func op(_ name: String, at index: Int?, value: ArraySlice<UInt8>?) {
            if output.count > 1 { output.append(UInt8(ascii: ",")) }
            output += #"{"op":""#.utf8
            output += name.utf8
            output += #"","path":"#.utf8
            JSONValue.writeString(place + "/" + (index.map { String($0) } ?? "-"), into: &output)
            if let value {
                output += #","value":"#.utf8
                output += value
            }
            output.append(UInt8(ascii: "}"))
        }
        let paired = min(removed.count, added.count)
        for offset in 0..<paired { op("replace", at: start + offset, value: added[added.startIndex + offset]) }
        if added.count > paired {
            for offset in paired..<added.count {
                let index = start + offset
                let current = length + offset - paired
                op("add", at: index == current ? nil : index, value: added[added.startIndex + offset])
            }
        } else {
            for offset in stride(from: removed.count - 1, through: paired, by: -1) {
                op("remove", at: start + offset, value: nil)
            }
        }
    }
}
