internal import CHiredis
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// The subscriber's thread: connect, subscribe, read messages, reconnect (see the type's state diagram).
extension RedisSubscriber {
    /// What the thread last told the handler, so `connected` and `disconnected` alternate.
    enum Reported { case nothing, up, down }

    /// The thread's body.
    func run() {
        _ = chiredis_name_this_thread(Self.threadName)
        var reported = Reported.nothing
        var backoffMs = Self.backoffMs.first
        while !isStopping {
            do throws(RedisError) {
                try session(reported: &reported)
            } catch {
                if reported == .up { backoffMs = Self.backoffMs.first }
                if reported != .down, !isStopping {
                    reported = .down
                    handler(.disconnected(error))
                }
            }
            guard !isStopping, waitForStop(ms: backoffMs) else { break }
            backoffMs = min(backoffMs * 2, Self.backoffMs.limit)
        }
        let detach = shared.withLock { shared -> Bool in
            guard shared.stoppedFromOwnThread else { return false }
            shared.phase = .stopped
            return true
        }
        if detach { pthread_detach(pthread_self()) }
    }

    /// One connection: connects, subscribes to every channel, then hands over messages until the connection fails
    /// (thrown) or ``stop()`` (returns). Reports `connected` once the initial subscriptions are confirmed.
    private func session(reported: inout Reported) throws(RedisError) {
        let connection = try RedisConnection(endpoint, connectTimeoutMs: Self.connectTimeoutMs, commandTimeoutMs: 2000)
        defer { connection.close() }
        _ = try connection.command([Array("CLIENT".utf8), Array("SETNAME".utf8), Array(Self.clientName(name).utf8)])
        // Everything subscribed so far; requests queued before now are covered by it.
        let channels = shared.withLock { shared -> [[UInt8]] in
            shared.requests.removeAll()
            return Array(shared.channels)
        }
        var awaiting = channels.count
        var held: [Event] = []
        if !channels.isEmpty {
            try connection.append([Array("SUBSCRIBE".utf8)] + channels)
            try connection.flush()
        } else {
            reported = .up
            handler(.connected)
        }
        guard let socket = connection.fileDescriptor else { return }
        var descriptors = [
            pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakePipe.readDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while !isStopping {
            while let reply = try connection.takeBufferedReply() {
                guard let event = Self.event(reply, awaiting: &awaiting) else { continue }
                if case .connected = event {
                    reported = .up
                    handler(.connected)
                    for message in held where isSubscribed(message) { handler(message) }
                    held = []
                } else if awaiting > 0 {
                    held.append(event)
                } else if isSubscribed(event) {
                    handler(event)
                }
                if isStopping { return }
            }
            try sendRequests(on: connection)
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let ready = poll(&descriptors, 2, 1000)
            if ready < 0 && errno != EINTR {
                throw RedisError(.io, "poll on the subscriber's socket failed: errno \(errno)")
            }
            if descriptors[1].revents != 0 { wakePipe.drain() }
            if descriptors[0].revents != 0 { try connection.readAvailable() }
        }
    }

    /// Sends the subscribe and unsubscribe requests queued since the last look, in order.
    private func sendRequests(on connection: RedisConnection) throws(RedisError) {
        let requests = shared.withLock { shared -> [Request] in
            defer { shared.requests.removeAll() }
            return shared.requests
        }
        guard !requests.isEmpty else { return }
        for request in requests {
            switch request {
            case .subscribe(let channels): try connection.append([Array("SUBSCRIBE".utf8)] + channels)
            case .unsubscribe(let channels): try connection.append([Array("UNSUBSCRIBE".utf8)] + channels)
            }
        }
        try connection.flush()
    }

    /// Whether `event` is a message of a channel subscribed now (other events: true).
    private func isSubscribed(_ event: Event) -> Bool {
        guard case .message(let channel, _) = event else { return true }
        return shared.withLock { $0.channels.contains(channel) }
    }

    /// The event a pushed reply means: `message` → ``Event/message(channel:payload:)``; the confirmation that brings
    /// `awaiting` (the initial subscriptions not yet confirmed) to 0 → ``Event/connected``; anything else → nil.
    static func event(_ reply: RedisReply, awaiting: inout Int) -> Event? {
        guard let parts = reply.array, parts.count == 3, let kind = parts[0].string else { return nil }
        switch kind {
        case "message":
            guard let channel = parts[1].bytes, let payload = parts[2].bytes else { return nil }
            return .message(channel: channel, payload: payload)
        case "subscribe" where awaiting > 0:
            awaiting -= 1
            return awaiting == 0 ? .connected : nil
        default:
            return nil
        }
    }

    /// Waits `ms` milliseconds unless ``stop()`` comes first; returns false when it did.
    private func waitForStop(ms: Int) -> Bool {
        let deadline = Self.nowMs + ms
        while !isStopping {
            let left = deadline - Self.nowMs
            if left <= 0 { return true }
            var descriptor = pollfd(fd: wakePipe.readDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, Int32(left)) > 0 { wakePipe.drain() }
        }
        return false
    }

    private static var nowMs: Int { Int(MonotonicClock.nowNs() / 1_000_000) }

    /// `name` with spaces and control characters replaced by `_` (`CLIENT SETNAME` refuses them); `redis-sub` when
    /// empty.
    static func clientName(_ name: String) -> String {
        guard !name.isEmpty else { return threadName }
        return String(name.unicodeScalars.map { $0.value <= 32 || $0.value == 127 ? "_" : Character($0) })
    }
}
