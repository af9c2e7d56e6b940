/// A request-target with the path and query derived from it (RFC 9112 §3.2), as ``HTTPRequest`` holds them.
struct RequestTarget {
    /// The target exactly as received.
    var target: String
    /// The target up to (not including) the first `?`, after reduction to origin-form.
    var path: String
    /// The part after the first `?`; `nil` when there is none.
    var query: String?

    /// Derives ``path`` and ``query`` from a decoded target of any form.
    init(_ target: String) {
        self.target = target
        let origin = Self.originForm(of: target)
        if let mark = origin.utf8.firstIndex(of: UInt8(ascii: "?")) {
            path = String(origin[..<mark])
            query = String(origin[origin.utf8.index(after: mark)...])  // a UTF-8 step: "?" may start a grapheme cluster
        } else {
            path = String(origin)
            query = nil
        }
    }

    /// Decodes a target from its bytes (invalid UTF-8 repaired as `String(decoding:as:)` does).
    ///
    /// An origin-form target (first byte `/`, RFC 9112 §3.2.1) is split at its first `?` on the bytes, and a
    /// target without `?` shares its storage with ``path``; other forms go through ``init(_:)``. Both ways give
    /// the same strings: `?` is ASCII, so it splits the repaired text where it splits the bytes.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        let target = String(decoding: bytes, as: UTF8.self)
        guard bytes.first == UInt8(ascii: "/") else {
            self = RequestTarget(target)
            return
        }
        self.target = target
        if let mark = bytes.firstIndex(of: UInt8(ascii: "?")) {
            path = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<mark]), as: UTF8.self)
            query = String(decoding: UnsafeBufferPointer(rebasing: bytes[(mark + 1)...]), as: UTF8.self)
        } else {
            path = target
            query = nil
        }
    }

    /// The path-and-query part of a request-target: absolute-form (`http://host/path?q`, RFC 9112 §3.2.2), which a
    /// server must accept, is reduced to `/path?q`; origin-form is returned as is.
    static func originForm(of target: String) -> Substring {
        // On UTF-8 code units throughout: a target's raw bytes may put a combining mark after `/` or `?`, and as
        // Characters those would be one grapheme cluster with it.
        let bytes = target.utf8
        if bytes.first == UInt8(ascii: "/") { return Substring(target) }
        let schemeLength: Int  // schemes compare without case (RFC 9110 §4.2.3)
        if asciiCaseInsensitiveEqual(bytes.prefix(7), "http://".utf8) {
            schemeLength = 7
        } else if asciiCaseInsensitiveEqual(bytes.prefix(8), "https://".utf8) {
            schemeLength = 8
        } else {
            return Substring(target)
        }
        let afterScheme = bytes.index(bytes.startIndex, offsetBy: schemeLength)
        guard let slash = bytes[afterScheme...].firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") })
        else { return "/" }
        return bytes[slash] == UInt8(ascii: "?") ? Substring("/" + target[slash...]) : target[slash...]
    }
}

/// Whether the UTF-8 of `text` is exactly `bytes`; the lengths are compared first.
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
func utf8(of text: String, equals bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard text.utf8.count == bytes.count else { return false }
    guard let other = bytes.baseAddress else { return true }
    return text.utf8.withContiguousStorageIfAvailable { bytesEqual($0.baseAddress!, other, count: bytes.count) }
        ?? text.utf8.elementsEqual(bytes)
}
