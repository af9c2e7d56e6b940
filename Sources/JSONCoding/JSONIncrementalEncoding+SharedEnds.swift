extension JSONIncrementalEncoding {
    /// A piece of the text as it is put together: a run of the skeleton, a bracket or comma of a chunked array, or
    /// a chunk's elements.
    private enum Piece {
        case literal(ArraySlice<UInt8>)
        case punctuation(UInt8)
        case chunk(ChunkIdentity, count: Int)
    }

    /// The text's pieces in order (the parts the assembly in `init(skeleton:arrays:)` writes).
    private var pieces: [Piece] {
        guard let skeleton else { return [] }
        var pieces: [Piece] = []
        Self.walk(
            skeleton,
            literal: { if !$0.isEmpty { pieces.append(.literal(skeleton[$0])) } },
            array: { number in
                arrays[number].forEachPart(
                    punctuation: { pieces.append(.punctuation($0)) },
                    chunk: { box, encoded in pieces.append(.chunk(box, count: encoded.bytes.count)) })
            })
        return pieces
    }

    /// How many leading and trailing bytes the texts of `old` and `new` are known to share, from their pieces alone
    /// (chunks that are the same box, equal runs of the skeleton): lower bounds of the longest common prefix and
    /// suffix, whose sum is at most the shorter text's length. For a change to one chunk of a big array they cover
    /// nearly all of both texts, so a byte delta of the two (the store's history) needs no scan of the rest.
    /// `(0, 0)` when either value was encoded plainly. Works on encodings without their text
    /// (``forgettingText()``).
    public static func sharedEnds(_ old: Self, _ new: Self) -> (prefix: Int, suffix: Int) {
        let before = old.pieces
        let after = new.pieces
        guard !before.isEmpty, !after.isEmpty else { return (0, 0) }
        func length(_ piece: Piece) -> Int {
            switch piece {
            case .literal(let bytes): bytes.count
            case .punctuation: 1
            case .chunk(_, let count): count
            }
        }
        /// The shared length of two pieces, and whether they are the same (so the walk goes on).
        func shared(_ a: Piece, _ b: Piece, fromEnd: Bool) -> (Int, Bool) {
            switch (a, b) {
            case (.literal(let x), .literal(let y)):
                if x == y { return (x.count, true) }
                var count = 0
                if fromEnd {
                    while count < min(x.count, y.count), x[x.endIndex - 1 - count] == y[y.endIndex - 1 - count] { count += 1 }
                } else {
                    while count < min(x.count, y.count), x[x.startIndex + count] == y[y.startIndex + count] { count += 1 }
                }
                return (count, false)
            case (.punctuation(let x), .punctuation(let y)): return x == y ? (1, true) : (0, false)
            case (.chunk(let x, let xCount), .chunk(let y, _)): return x === y ? (xCount, true) : (0, false)
            default: return (0, false)
            }
        }
        var prefix = 0
        var front = 0
        while front < before.count, front < after.count {
            let (count, same) = shared(before[front], after[front], fromEnd: false)
            prefix += count
            if !same { break }
            front += 1
        }
        var suffix = 0
        var back = 0
        while back < before.count - front, back < after.count - front {
            let (count, same) = shared(before[before.count - 1 - back], after[after.count - 1 - back], fromEnd: true)
            suffix += count
            if !same { break }
            back += 1
        }
        let shorter = min(before.reduce(0) { $0 + length($1) }, after.reduce(0) { $0 + length($1) })
        if prefix > shorter { prefix = shorter }
        if prefix + suffix > shorter { suffix = shorter - prefix }
        return (prefix, suffix)
    }
}
