import Synchronization
import Locking

/// Keeps every record in memory, for tests: pass `Logger(level: .debug, handler: handler)` to the server, then look
/// at ``records`` or await one with ``waitForRecord(timeout:where:)``.
///
/// ```swift
/// let handler = InMemoryLogHandler()
/// let server = try Server(configuration: config, catalog: catalog, logger: Logger(level: .debug, handler: handler))
/// let line = await handler.waitForRecord { $0.message.hasPrefix("serving") }
/// ```
///
/// Records are kept until ``removeAll()``; a long test at `.debug` keeps one per HTTP response.
///
/// ## Thread safety
/// Sendable: the records and the waiters are behind a `Locked`; any thread may log or read.
public final class InMemoryLogHandler: LogHandler {
    private struct Waiter {
        let id: UInt64
        let predicate: @Sendable (LogRecord) -> Bool
        let continuation: CheckedContinuation<LogRecord?, Never>
        var timer: Task<Void, Never>?
    }

    private struct State {
        var records: [LogRecord] = []
        var waiters: [Waiter] = []
        var nextWaiter: UInt64 = 0
    }

    private let state = Locked(State())

    public init() {}

    public func log(_ record: LogRecord) {
        let woken = state.withLock { state -> [Waiter] in
            state.records.append(record)
            var matching: [Waiter] = []
            state.waiters.removeAll { waiter in
                guard waiter.predicate(record) else { return false }
                matching.append(waiter)
                return true
            }
            return matching
        }
        for waiter in woken {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: record)
        }
    }

    /// Every record so far, oldest first.
    public var records: [LogRecord] { state.withLock { $0.records } }

    /// The records at `level`, oldest first.
    public func records(at level: Logger.Level) -> [LogRecord] { records.filter { $0.level == level } }

    /// The first record so far that satisfies `predicate`, or nil.
    public func first(where predicate: (LogRecord) -> Bool) -> LogRecord? {
        state.withLock { state in state.records.first(where: predicate) }
    }

    /// Forgets the records so far (waiters keep waiting).
    public func removeAll() { state.withLock { $0.records.removeAll() } }

    /// The first record, already kept or still to come, that satisfies `predicate`; nil when none has come within
    /// `timeout`. Returns as soon as the record is logged (no polling). `predicate` runs under the handler's lock, on
    /// the logging thread: it must not log to this handler.
    public func waitForRecord(
        timeout: Duration = .seconds(10), where predicate: @escaping @Sendable (LogRecord) -> Bool
    ) async -> LogRecord? {
        await withCheckedContinuation { continuation in
            let found = state.withLock { state -> LogRecord? in
                if let record = state.records.first(where: predicate) { return record }
                state.nextWaiter += 1
                let id = state.nextWaiter
                // The deadline: expire() takes the lock, so it finds this waiter even if it fires at once.
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    if !Task.isCancelled { self?.expire(id) }
                }
                state.waiters.append(Waiter(id: id, predicate: predicate, continuation: continuation, timer: timer))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    /// A waiter's deadline has passed: it gets nil, unless a record came first.
    private func expire(_ id: UInt64) {
        let expired = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        expired?.continuation.resume(returning: nil)
    }
}
