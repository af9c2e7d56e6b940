import HTTP1

/// `X-Request-Id`: the id of one HTTP request, echoed on its response and written in every log line about it
/// (`request_id`).
///
/// The client's own id is kept when it is 1 to 128 visible ASCII characters (RFC 9110 §5.5 field value: `VCHAR`,
/// 0x21–0x7E; no space, no control, no obs-text). Otherwise the server makes one, short and unique within the process
/// with no system call and no random number per request: the process's tag (4 base-36 characters, drawn once per
/// process), the loop's index (base 36), `-`, then the loop's request count in base 36, e.g. `k2x90-1f`.
///
/// ## Thread safety
/// A namespace of pure functions; the counter lives in each loop's ``ServerContext`` (loop-confined).
enum RequestID {
    /// The field's name.
    static let fieldName = "X-Request-Id"
    /// The longest client id kept, in bytes.
    static let maxClientBytes = 128

    /// The process's tag: 4 base-36 characters drawn once, so ids from two runs of the server seldom collide.
    static let processTag: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in digit(Int(generator.next() % 36)) }
    }()

    /// The prefix of the ids a loop makes: the process's tag, the loop's index in base 36, `-`.
    static func prefix(loopIndex: Int) -> [UInt8] {
        processTag + Array(String(loopIndex, radix: 36).utf8) + [UInt8(ascii: "-")]
    }

    /// Whether `value` may be used as the request's id (1 to 128 bytes, each 0x21–0x7E).
    static func isAcceptable(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            (1...maxClientBytes).contains(bytes.count) && bytes.allSatisfy { (0x21...0x7E).contains($0) }
        }
    }

    /// The id made from `prefix` and `number`: the prefix's bytes, then `number` in base 36 (lowercase).
    ///
    /// Written on the stack and decoded, so an id of at most 15 bytes (a loop's first 36⁹ requests) is a small
    /// string, stored inline with no heap block (callgrind: a heap string here was a `malloc`, a `free` and about 300
    /// instructions of reference counting per request).
    static func made(prefix: [UInt8], number: UInt64) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefix.count + 13) { buffer in
            var index = 0
            for byte in prefix {
                buffer[index] = byte
                index += 1
            }
            // Base-36 digits, most significant first: find the width, then fill from the right.
            var width = 1
            var probe = number / 36
            while probe > 0 {
                width += 1
                probe /= 36
            }
            var rest = number
            var position = index + width - 1
            while position >= index {
                buffer[position] = digit(Int(rest % 36))
                rest /= 36
                position -= 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<(index + width)]), as: UTF8.self)
        }
    }

    @inline(__always)
    private static func digit(_ value: Int) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + UInt8(value) : UInt8(ascii: "a") + UInt8(value - 10)
    }
}
