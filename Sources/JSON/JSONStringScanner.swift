/// Plain string bytes, which need neither unescaping nor UTF-8 validation: finding where they end, and making a
/// String of them.
enum JSONStringScanner {
    /// The offset of the first byte at or after `start` that is `"`, `\`, a control byte (< 0x20) or not ASCII
    /// (≥ 0x80), or `bytes.count` when there is none. Reads eight bytes at a time while eight remain.
    static func plainASCIIEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let stops = stopMask(word)
                if stops != 0 { return index + stops.trailingZeroBitCount >> 3 }
                index += 8
            }
        }
        while index < bytes.count, !isStop(bytes[index]) {
            index += 1
        }
        return index
    }

    /// Whether `byte` ends a plain run (see `plainASCIIEnd`).
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    static func isStop(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80
    }

    /// Eight bytes, first byte lowest: the high bit of each byte lane is set for stop bytes. Exact for the lowest
    /// stop byte (a lane above one may be flagged falsely, through a borrow), which is all `plainASCIIEnd` reads.
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    static func stopMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let quoteLanes = (quote &- ones) & ~quote  // lanes equal to `"` (then zero)
        let backslashLanes = (backslash &- ones) & ~backslash
        let controlLanes = (word &- ones &* 0x20) & ~word  // lanes below 0x20
        return (quoteLanes | backslashLanes | controlLanes | word) & (ones &* 0x80)
    }

    /// A String from bytes known to be ASCII. Up to 15 bytes are written straight into a small string (no allocation,
    /// no validation pass); longer ones go through `String(decoding:)`.
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    static func asciiString(_ ascii: UnsafeBufferPointer<UInt8>) -> String {
        guard ascii.count <= 15 else { return String(decoding: ascii, as: UTF8.self) }
        guard let source = ascii.baseAddress, ascii.count > 0 else { return "" }
        return String(unsafeUninitializedCapacity: ascii.count) { target in
            target.baseAddress!.initialize(from: source, count: ascii.count)
            return ascii.count
        }
    }
}
