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
        fill(base)
    }

    deinit { free(base) }

    /// The bytes as an array (tests and logging).
    public var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: base, count: count)) }
}
