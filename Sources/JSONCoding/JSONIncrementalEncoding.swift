/// One value encoded through a ``JSONEncodeCache``: its JSON text and, when it holds chunked arrays, how the text
/// was put together (a *skeleton*: the text with a placeholder for each chunked array, and each array's chunks),
/// from which ``patch(from:to:)`` finds what changed between two encodes without parsing or diffing the arrays.
///
/// ## Thread safety
/// An immutable value; Sendable. It keeps the chunk boxes it was made of alive (so identities compared later are
/// the same boxes).
public struct JSONIncrementalEncoding: Sendable {
    /// The JSON text: the same bytes as ``JSONBytesEncoder/encode(_:)`` of the value (empty after
    /// ``forgettingText()``).
    public private(set) var bytes: [UInt8]
    /// The text with each chunked array as a placeholder (`0x01`, its index in ``arrays``, `0x02`); nil when the
    /// value was encoded plainly (no chunked array known).
    let skeleton: [UInt8]?
    /// The chunked arrays, by placeholder index.
    let arrays: [ChunkedArrayTrace]

    /// Whether the value was encoded with its chunks' cached JSON (so ``patch(from:to:)`` can answer).
    public var isIncremental: Bool { skeleton != nil }

    /// This encoding without its text: what ``patch(from:to:)`` needs of an older version, without keeping its
    /// text alive. Its ``bytes`` are empty.
    public func forgettingText() -> JSONIncrementalEncoding {
        var copy = self
        copy.bytes = []
        return copy
    }

    /// A plain encode's text.
    init(bytes: [UInt8]) {
        self.bytes = bytes
        skeleton = nil
        arrays = []
    }

    /// Puts the text together: the skeleton's bytes with each placeholder replaced by its array's text (one copy of
    /// every chunk's bytes into a buffer of the exact size).
    init(skeleton: [UInt8], arrays: [ChunkedArrayTrace]) {
        self.skeleton = skeleton
        self.arrays = arrays
        guard !arrays.isEmpty else {
            bytes = skeleton
            return
        }
        var total = skeleton.count
        for array in arrays { total += array.textCount }  // at most: each placeholder's own bytes are left out
        bytes = [UInt8](unsafeUninitializedCapacity: total) { output, written in
            var at = 0
            func put(_ source: UnsafeBufferPointer<UInt8>) {
                guard let base = source.baseAddress, !source.isEmpty else { return }
                (output.baseAddress! + at).initialize(from: base, count: source.count)
                at += source.count
            }
            func put(_ byte: UInt8) {
                output[at] = byte
                at += 1
            }
            skeleton.withUnsafeBufferPointer { text in
                Self.walk(
                    skeleton,
                    literal: { put(UnsafeBufferPointer(rebasing: text[$0])) },
                    array: { number in
                        arrays[number].forEachPart(
                            punctuation: put, chunk: { _, encoded in encoded.bytes.withUnsafeBufferPointer(put) })
                    })
            }
            written = at
        }
    }

    /// The skeleton as JSON: each placeholder replaced by `null` (for diffing what lies outside the arrays).
    func parsableSkeleton() -> [UInt8] {
        guard let skeleton else { return bytes }
        guard !arrays.isEmpty else { return skeleton }
        var output: [UInt8] = []
        output.reserveCapacity(skeleton.count + 4 * arrays.count)
        Self.walk(skeleton, literal: { output += skeleton[$0] }, array: { _ in output += "null".utf8 })
        return output
    }

    /// Walks a skeleton, the one reader of its placeholder format (`0x01`, the array's index in decimal digits,
    /// `0x02`): `literal` for each run of plain text between placeholders (possibly empty), `array` for each
    /// placeholder's index, in order.
    static func walk(_ skeleton: [UInt8], literal: (Range<Int>) -> Void, array: (Int) -> Void) {
        var start = 0
        var index = 0
        while index < skeleton.count {
            guard skeleton[index] == BytesEncoder.placeholderOpen else {
                index += 1
                continue
            }
            literal(start..<index)
            var number = 0
            index += 1
            while skeleton[index] != BytesEncoder.placeholderClose {
                number = number * 10 + Int(skeleton[index] &- UInt8(ascii: "0"))
                index += 1
            }
            index += 1
            start = index
            array(number)
        }
        literal(start..<skeleton.count)
    }
}
