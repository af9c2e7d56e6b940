import Foundation
import Redis
import Locking
import UVLoop

/// One thread with one Redis connection that runs blocking commands off the event loops, pipelined.
///
/// Loop: wait for jobs; take ALL queued; append every command of every job to the connection and read every reply
/// (one round trip for the lot: a group commit across stores when the jobs are commits); then call each job's
/// `done` in queue order with its own replies. Replies to one connection come in command order, so the jobs of one
/// store are applied by Redis in the order they were queued.
///
/// A connection that fails (Redis down, killed, timed out) fails every job of that round (`done(.failure)`: the
/// worker cannot know which of them Redis applied) and is dropped; the next round connects again, then runs
/// ``prelude`` first (e.g. `FUNCTION LOAD REPLACE`). Jobs are never retried here: their owners decide.
///
/// Lifecycle: `running` → `stopped` (``stop()``: queued jobs fail with `.closed`, the thread ends).
///
/// ## Thread safety
/// `@unchecked Sendable`: the queue and phase are guarded by `condition`; the connection is touched only by the
/// worker thread.
final class RedisWorker: @unchecked Sendable {
    /// One request: its commands (each an argv), built on the worker thread, and what gets their replies.
    struct Job {
        let commands: () -> [[[UInt8]]]
        let done: @Sendable (Result<[RedisReply], RedisError>) -> Void
    }

    let endpoint: RedisEndpoint
    let name: String
    /// Commands run on every new connection before any job (their replies are checked: an error reply fails the round).
    let prelude: [[[UInt8]]]
    let commandTimeoutMs: Int
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var running = true
    private let finished = DispatchSemaphore(value: 0)
    /// Worker thread only.
    private var connection: RedisConnection?

    init(_ endpoint: RedisEndpoint, name: String, prelude: [[[UInt8]]] = [], commandTimeoutMs: Int = 2_000) {
        self.endpoint = endpoint
        self.name = name
        self.prelude = prelude
        self.commandTimeoutMs = commandTimeoutMs
    }

    func start() {
        let thread = Thread { [self] in
            EventLoop.nameCurrentThread(name)
            run()
        }
        thread.name = name
        thread.start()
    }

    /// Queues `commands` (built on the worker thread); `done` runs on the worker thread with one reply per command.
    func submit(
        _ commands: @escaping () -> [[[UInt8]]], done: @escaping @Sendable (Result<[RedisReply], RedisError>) -> Void
    ) {
        condition.lock()
        guard running else {
            condition.unlock()
            done(.failure(RedisError(.closed, "the server is stopping")))
            return
        }
        queue.append(Job(commands: commands, done: done))
        condition.signal()
        condition.unlock()
    }

    /// Queues one command; `done` gets its reply.
    func submit(_ command: [[UInt8]], done: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void) {
        submit({ [command] }) { result in done(result.map { $0[0] }) }
    }

    /// Runs `commands` and waits for their replies (blocking the calling thread: startup only).
    func callAndWait(_ commands: [[[UInt8]]]) -> Result<[RedisReply], RedisError> {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<[RedisReply], RedisError>?>(nil)
        submit({ commands }) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0! }
    }

    /// Fails what is queued and ends the thread (after the round in progress); waits for it.
    func stop() {
        condition.lock()
        running = false
        condition.signal()
        condition.unlock()
        finished.wait()
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && running { condition.wait() }
            let jobs = queue
            queue = []
            let stopping = !running
            condition.unlock()
            if stopping {
                let closed = RedisError(.closed, "the server is stopping")
                for job in jobs { job.done(.failure(closed)) }
                connection?.close()
                finished.signal()
                return
            }
            runRound(jobs)
        }
    }

    /// One round trip for `jobs`.
    private func runRound(_ jobs: [Job]) {
        let commands = jobs.map { $0.commands() }
        let replies: [RedisReply]
        do {
            let connection = try connected()
            replies = try connection.pipeline(commands.flatMap { $0 })
        } catch {
            connection?.close()
            connection = nil
            for job in jobs { job.done(.failure(error)) }
            return
        }
        // The function library is gone (FUNCTION FLUSH, or a Redis that lost its data): load it again on the next
        // round's new connection rather than fail every FCALL until a reconnect.
        if !prelude.isEmpty, replies.contains(where: { if case .error(let text) = $0 { text.contains("Function not found") } else { false } }) {
            connection?.close()
            connection = nil
        }
        var at = 0
        for (job, sent) in zip(jobs, commands) {
            job.done(.success(Array(replies[at..<at + sent.count])))
            at += sent.count
        }
    }

    /// The connection, made (with the prelude run on it) when there is none.
    private func connected() throws(RedisError) -> RedisConnection {
        // A connection that waited may have been closed by a restarted server: reconnect rather than send into it.
        if let connection, !connection.isClosedByServer { return connection }
        connection?.close()
        let made = try RedisConnection(endpoint, connectTimeoutMs: 1_000, commandTimeoutMs: commandTimeoutMs)
        if !prelude.isEmpty {
            for reply in try made.pipeline(prelude) {
                if case .error(let message) = reply {
                    made.close()
                    throw RedisError(.protocol, "setting up the connection: \(message)")
                }
            }
        }
        connection = made
        return made
    }
}
