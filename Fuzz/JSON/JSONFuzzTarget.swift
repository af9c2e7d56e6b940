// libFuzzer target for the JSON module (JSONValue parsing and serialization, RFC 6901 pointers, RFC 6902 patches),
// linked with the JSON module by scripts/fuzz.
//
// Input: byte 0 picks the mode (its value mod 3), the rest is the text:
// - 0, a JSON text: parsing it never crashes or traps, nor takes more than libFuzzer's -timeout; when it parses,
//   its serialization parses back to the same value (compact and with sorted keys), the sorted serialization is a
//   fixed point, and parsing with a smaller maxDepth never accepts what a larger one refuses;
// - 1, a JSON Pointer (the text as UTF-8): when it parses, printing it and parsing that gives the same tokens, and
//   resolving it in a small document never traps;
// - 2, a document and a patch separated by the first newline: the patch (when it is a valid RFC 6902 array) applied
//   to the document never traps; when it applies, the differ's patch from the document to the result, applied to the
//   document, gives the result again, and serializing and parsing that patch gives the same operations.

@testable import JSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 3 {
    case 0: checkValue(input)
    case 1: checkPointer(input)
    default: checkPatch(input)
    }
    return 0
}

private func checkValue(_ bytes: [UInt8]) {
    guard let value = try? JSONValue(parsing: bytes, maxDepth: 64) else {
        if (try? JSONValue(parsing: bytes, maxDepth: 8)) != nil {
            fuzzCheck(false, "accepted at depth 8 but refused at 64: \(String(decoding: bytes, as: UTF8.self))")
        }
        return
    }
    let compact = value.serialized()
    let sorted = value.serialized(sortedKeys: true)
    guard let again = try? JSONValue(parsing: compact, maxDepth: 64) else {
        return fuzzCheck(false, "its serialization does not parse: \(String(decoding: compact, as: UTF8.self))")
    }
    fuzzCheck(again == value, "compact round trip changed the value: \(String(decoding: compact, as: UTF8.self))")
    guard let sortedAgain = try? JSONValue(parsing: sorted, maxDepth: 64) else {
        return fuzzCheck(false, "its sorted serialization does not parse: \(String(decoding: sorted, as: UTF8.self))")
    }
    fuzzCheck(sortedAgain.serialized(sortedKeys: true) == sorted, "the sorted serialization is not a fixed point")
}

private func checkPointer(_ bytes: [UInt8]) {
    guard let text = String(validating: bytes, as: UTF8.self), let pointer = try? JSONPointer(text) else { return }
    let printed = pointer.description
    guard let again = try? JSONPointer(printed) else {
        return fuzzCheck(false, "a printed pointer does not parse: \(printed.debugDescription)")
    }
    fuzzCheck(again.tokens == pointer.tokens, "pointer round trip changed \(pointer.tokens) into \(again.tokens)")
    let document: JSONValue = ["a": [1, ["b": "c"]], "": ["~": 0, "/": [true]], "0": [[], [:]]]
    _ = try? JSONPatch.apply([.remove(path: pointer)], to: document)
    _ = try? JSONPatch.apply([.add(path: pointer, value: 1)], to: document)
}

private func checkPatch(_ bytes: [UInt8]) {
    guard let newline = bytes.firstIndex(of: 0x0A),
        let document = try? JSONValue(parsing: bytes[..<newline], maxDepth: 32),
        let ops = try? JSONPatch.parse(bytes[(newline + 1)...])
    else { return }
    let reparsed = try? JSONPatch.parse(JSONPatch.serialize(ops))
    fuzzCheck(reparsed == ops, "patch round trip changed \(ops)")
    guard let result = try? JSONPatch.apply(ops, to: document) else { return }
    let diff = JSONPatch.diff(from: document, to: result)
    guard let rebuilt = try? JSONPatch.apply(diff, to: document) else {
        return fuzzCheck(false, "the differ's patch \(diff) does not apply to \(document)")
    }
    fuzzCheck(rebuilt == result, "the differ's patch \(diff) gives \(rebuilt), not \(result)")
}
