/// The idempotency keys a client makes for actions sent without one: 96 random bits drawn once per `RemoteServer`
/// (24 hex digits), then a counter — unique across clients without a system call per action (drawing 128 fresh bits
/// per action cost two `getrandom` calls, about 10% of a client's CPU per acked action; BENCHMARKS.md, *client*).
///
/// ## Thread safety
/// A value type; its owner (``ClientConnection``) uses it on its loop thread only.
struct IdempotencyKeys: Sendable {
    private let prefix: String
    private var counter: UInt64 = 0

    init() {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64, low = generator.next() as UInt32
        prefix = Self.hex(high, digits: 16) + Self.hex(UInt64(low), digits: 8) + "-"
    }

    /// The next key: `<prefix>-<counter>`, at most 45 printable ASCII bytes.
    mutating func next() -> String {
        counter += 1
        return prefix + String(counter)
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: digits - text.count) + text
    }
}
