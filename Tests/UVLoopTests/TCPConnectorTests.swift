import Foundation
import Testing
import UVLoop
import Locking

/// Outgoing connections (`TCPConnection.connect`): to a listener of the same loop by literal and by name, and the
/// errors for a refused port, a name that does not resolve, and a cancelled attempt.
@Suite(.timeLimit(.minutes(1)))
struct TCPConnectorTests {
    /// Connects to `host` and echoes one line through a listener on 127.0.0.1 (or ::1).
    private func echoesThroughConnection(listenOn listenHost: String, connectTo host: String) throws {
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let events = EventRecord()
        let port = try loop.submitAndWait {
            try TCPListener(loop: loop, host: listenHost, port: 0) { accepted in
                accepted.onRead = { bytes in accepted.write(Array(bytes)) }
                accepted.onEnd = { _ in accepted.closeAfterWrites() }
                accepted.startReading()
            }.port
        }
        loop.execute {
            TCPConnection.connect(on: loop, host: host, port: port) { result in
                switch result {
                case .failure(let error): events.append("failed \(error)")
                case .success(let connection):
                    events.append("connected \(connection.isOpen)")
                    connection.onRead = { bytes in
                        events.append("read \(String(decoding: bytes, as: UTF8.self))")
                        connection.close()
                    }
                    connection.onClosed = { events.append("closed") }
                    connection.startReading()
                    connection.write(Array("ping".utf8))
                }
            }
            events.append("connect returned")
        }
        #expect(try events.waitUntil(within: .seconds(5)) { $0.last == "closed" })
        #expect(events.snapshot == ["connect returned", "connected true", "read ping", "closed"])
    }

    @Test func connectsToAnIPv4Literal() throws {
        try echoesThroughConnection(listenOn: "127.0.0.1", connectTo: "127.0.0.1")
    }

    /// "localhost" may resolve to ::1 first; the listener is on 127.0.0.1 only, so the next address must be tried.
    @Test func connectsToLocalhostByName() throws {
        try echoesThroughConnection(listenOn: "127.0.0.1", connectTo: "localhost")
    }

    /// A port nobody listens on: `ECONNREFUSED` from `uv_tcp_connect`, promptly.
    @Test func refusedPortIsAnError() throws {
        let error = try connectError(host: "127.0.0.1", port: try closedPort())
        #expect(error?.operation == "uv_tcp_connect")
        #expect(error?.name == "ECONNREFUSED")
    }

    /// A name under `.invalid` (RFC 6761 §6.4) never resolves: the resolver's error.
    @Test func unresolvableNameIsAnError() throws {
        let error = try connectError(host: "no-such-host.invalid", port: 80)
        #expect(error?.operation == "uv_getaddrinfo")
        #expect(error?.name.hasPrefix("EAI_") == true, "\(String(describing: error))")
    }

    @Test func portOutOfRangeIsAnError() throws {
        let error = try connectError(host: "127.0.0.1", port: 70_000)
        #expect(error?.name == "EINVAL")
    }

    /// `cancel()` calls the completion with `ECANCELED` before it returns, and nothing after.
    @Test func cancelEndsTheAttempt() throws {
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let events = EventRecord()
        try loop.submitAndWait {
            // Whatever the attempt would come to (port 9 is likely refused), cancel() in the same job comes first.
            let connector = TCPConnection.connect(on: loop, host: "127.0.0.1", port: 9) { result in
                if case .failure(let error) = result { events.append("failed \(error.name)") } else { events.append("connected") }
            }
            connector.cancel()
            events.append("cancel returned \(connector.isConnecting)")
        }
        // The attempt's socket closes in a later turn; nothing is reported for it.
        let deadline = ContinuousClock.now + .seconds(5)
        var open = try loop.submitAndWait { loop.openHandleCount }
        while open != 0, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.005)  // polling with a deadline, not synchronising by sleep
            open = try loop.submitAndWait { loop.openHandleCount }
        }
        #expect(open == 0)
        #expect(events.snapshot == ["failed ECANCELED", "cancel returned false"])
    }

    /// The error `connect` reports for `host:port`, waited for with a deadline.
    private func connectError(host: String, port: Int) throws -> UVError? {
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let outcome = Locked<Result<Void, UVError>?>(nil)
        let started = ContinuousClock.now
        loop.execute {
            TCPConnection.connect(on: loop, host: host, port: port) { result in
                outcome.withLock { $0 = result.map { $0.close() } }
            }
        }
        let deadline = started + .seconds(10)
        while outcome.withLock({ $0 }) == nil, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.005)  // polling with a deadline, not synchronising by sleep
        }
        guard case .failure(let error)? = outcome.withLock({ $0 }) else { return nil }
        #expect(ContinuousClock.now - started < .seconds(5), "the error came late")
        return error
    }

    /// A port that was free a moment ago: bound by a listener that is closed again.
    private func closedPort() throws -> Int {
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        return try loop.submitAndWait {
            let listener = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { $0.close() }
            listener.close()
            return listener.port
        }
    }
}
