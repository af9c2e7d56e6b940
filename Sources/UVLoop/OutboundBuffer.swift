import Foundation

/// Bytes queued for a socket write, at a stable address until every write that uses them has completed.
///
/// One buffer may be written to many connections (a broadcast frame is encoded once and shared); each pending
/// write keeps it alive. Immutable after initialisation, so it is `Sendable`.
public final class OutboundBuffer: @unchecked Sendable {
    /// Start of the bytes.
    public let base: UnsafeMutableRawPointer
    /// Length in bytes.
    public let count: Int
    /// The buffer whose bytes these are (``init(sharing:from:)``), kept alive by this one; nil when this one owns
    /// its bytes (and frees them).
    private let owner: OutboundBuffer?

    /// Copies `bytes` into a new buffer.
    public convenience init(_ bytes: [UInt8]) {
        self.init(count: bytes.count) { destination in
            bytes.withUnsafeBytes { source in
                if let from = source.baseAddress { destination.copyMemory(from: from, byteCount: source.count) }
            }
        }
    }

    /// Allocates `count` bytes (aligned as `malloc` aligns: for any scalar) and lets `fill` write all of them.
    public init(count: Int, fill: (UnsafeMutableRawPointer) -> Void) {
        self.count = count
        // `malloc` itself: `UnsafeMutableRawPointer.allocate` goes through `posix_memalign` here, about twice the cost.
        guard let base = malloc(max(count, 1)) else { fatalError("OutboundBuffer: out of memory (\(count) bytes)") }
        self.base = base
        owner = nil
        fill(base)
    }

    /// The bytes of `buffer` from `offset` (0...`buffer.count`) on, without a copy: `buffer` stays alive while this
    /// one does (e.g. a large message's body written after a per-connection prefix).
    public init(sharing buffer: OutboundBuffer, from offset: Int) {
        precondition(offset >= 0 && offset <= buffer.count, "OutboundBuffer: offset \(offset) outside 0...\(buffer.count)")
        base = buffer.base + offset
        count = buffer.count - offset
        owner = buffer
    }

    deinit { if owner == nil { free(base) } }

    /// The bytes as an array (tests and logging).
    public var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: base, count: count)) }
}
