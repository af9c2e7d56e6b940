// Shared by every fuzz target: compiled into each target's module by scripts/fuzz (never by `swift build`).

/// Cuts `count` input bytes into consecutive, non-empty ranges that cover all of them.
///
/// `seed` 0 gives one range (the whole input in one call); otherwise each range is 1…`seed` bytes long, the
/// lengths drawn from a 32-bit linear congruential generator seeded with `seed` (so seed 1 feeds byte by byte).
/// The same seed and count always give the same ranges, so a crashing input replays exactly.
func fuzzSplits(seed: UInt8, count: Int) -> [Range<Int>] {
    guard seed > 0, count > 0 else { return count > 0 ? [0..<count] : [] }
    var state = UInt32(seed) &* 2_654_435_761 | 1
    var ranges: [Range<Int>] = []
    var start = 0
    while start < count {
        state = state &* 1_664_525 &+ 1_013_904_223
        let length = 1 + Int(state >> 16) % Int(seed)
        let end = min(count, start + length)
        ranges.append(start..<end)
        start = end
    }
    return ranges
}

/// Stops the process with `message` when an invariant does not hold; libFuzzer reports the "deadly signal" and
/// saves the input.
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition { fatalError("fuzz invariant broken: \(message())", file: file, line: line) }
}

/// `bytes` as text for a failure message: UTF-8 (invalid bytes repaired), escaped to one line.
func fuzzShow(_ bytes: some Collection<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self).debugDescription
}
