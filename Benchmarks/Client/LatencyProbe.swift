import UVLoop

/// Change → receipt latency: a driver (a ``RawClient`` that does not subscribe) sends one `increment` at a time; a
/// receiver on another connection reports each version it learns of (``received(version:atNs:)``, from any thread);
/// each sample is the time from just before the send to the receiver knowing the new version. The next change is sent
/// once the receiver has seen the last, so exactly one is in flight; the first `warmup` changes are not timed.
///
/// Lifecycle: `waiting` (for the receiver's version `expected`; older versions are ignored) → one more send, or
/// `done` after `warmup + changes` (`completion` called once, also on a failure: a version past `expected` means
/// something else changed the store).
///
/// ## Thread safety
/// Loop-confined to the driver's loop; ``received(version:atNs:)`` is the door from other threads.
final class LatencyProbe: @unchecked Sendable {
    private let driver: RawClient
    private let changes: Int
    private let warmup: Int
    private let tag = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    private var expected: UInt64
    private var sent = 0
    private var sentAtNs: UInt64 = 0
    private var samples: [UInt64] = []
    private var completion: ((Result<[UInt64], BenchError>) -> Void)?

    /// - Parameters:
    ///   - driver: a ready client on its loop (the probe runs there).
    ///   - version: the store's version now, as the receiver has it.
    init(driver: RawClient, version: UInt64, changes: Int, warmup: Int,
         completion: @escaping (Result<[UInt64], BenchError>) -> Void) {
        self.driver = driver
        expected = version
        self.changes = changes
        self.warmup = warmup
        self.completion = completion
        samples.reserveCapacity(changes)
    }

    /// Sends the first change (on the driver's loop).
    func start() {
        driver.onFailure = { [self] error in finish(.failure(error)) }
        // The driver's acks are not needed: the receiver's version says when the change arrived.
        driver.onMessage = { _, _ in }
        sendNext()
    }

    /// The receiver knows `version` since `atNs` (``nowNs``). Callable from any thread.
    func received(version: UInt64, atNs: UInt64) {
        driver.loop.execute { [self] in arrived(version: version, atNs: atNs) }
    }

    private func arrived(version: UInt64, atNs: UInt64) {
        guard completion != nil, version >= expected else { return }
        guard version == expected else {
            return finish(.failure(BenchError(
                "the receiver saw version \(version) while \(expected) was expected: something else changes the store")))
        }
        if sent > warmup { samples.append(atNs - sentAtNs) }
        if sent == warmup + changes { return finish(.success(samples)) }
        sendNext()
    }

    private func sendNext() {
        sent += 1
        expected += 1
        sentAtNs = nowNs
        driver.sendIncrement(ref: sent, tag: tag)
    }

    private func finish(_ result: Result<[UInt64], BenchError>) {
        driver.onFailure = nil
        driver.onMessage = nil
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }

    /// Runs a probe to the end from outside the loop; `attach` connects the receiver to the probe before it starts
    /// (and is given it), `detach` after.
    static func run(driver: RawClient, version: UInt64, changes: Int, warmup: Int,
                    attach: @escaping @Sendable (LatencyProbe) -> Void) async throws(BenchError) -> [UInt64] {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[UInt64], BenchError>, Never>) in
            driver.loop.execute {
                let probe = LatencyProbe(driver: driver, version: version, changes: changes, warmup: warmup) {
                    continuation.resume(returning: $0)
                }
                attach(probe)
                probe.start()
            }
        }
        return try result.get()
    }
}
