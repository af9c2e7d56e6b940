// libFuzzer target for the JSON parser's limits on big inputs (nesting depth, number length, string length, member
// and element counts), linked with the JSON module by scripts/fuzz. libFuzzer's inputs are at most 4 KiB, too small
// for a quadratic step to show, so this target amplifies them:
//
// Input: `prefix NUL unit NUL suffix`; the text is the prefix, the unit repeated to 256 KiB, and the suffix (a number
// of 256 Ki digits, a string of 256 KiB, 128 Ki array elements, nesting far past the depth limit...). Parsing it
// (depth 512), serializing what parsed, reading it back and converting its first numbers must stay within
// libFuzzer's -timeout, as a linear parser does (a quadratic step on 256 KiB takes minutes), and within its
// -rss_limit_mb; what parses round-trips; a refusal is a parser error with an offset inside the text.

@testable import JSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONSize(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    checkAmplified(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// The amplified text's size: a quarter of the server's default body limit (1 MiB), large enough that a quadratic step
/// shows as a timeout, small enough for thousands of inputs a minute.
private let amplifiedBytes = 256 * 1024

private func checkAmplified(_ bytes: [UInt8]) {
    let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[1].isEmpty else { return }
    var text = Array(parts[0])
    text.reserveCapacity(amplifiedBytes + parts[0].count + parts[2].count)
    while text.count < amplifiedBytes { text.append(contentsOf: parts[1]) }
    text.append(contentsOf: parts[2])
    let value: JSONValue
    do {
        value = try JSONValue(parsing: text, maxDepth: 512)
    } catch {
        fuzzCheck(error.offset >= 0 && error.offset <= text.count, "offset \(error.offset) outside \(text.count) bytes")
        return
    }
    let again = try? JSONValue(parsing: value.serialized(), maxDepth: 512)
    fuzzCheck(again == value, "an amplified value does not round-trip (\(text.count) bytes)")
    var numbers = 0
    func visit(_ value: JSONValue) {
        switch value {
        case .number(let number):
            numbers += 1
            guard numbers <= 16 else { return }
            _ = number.intValue
            _ = number.doubleValue
        case .array(let elements): elements.prefix(16).forEach(visit)
        case .object(let object): object.values.prefix(16).forEach(visit)
        default: break
        }
    }
    visit(value)
}
