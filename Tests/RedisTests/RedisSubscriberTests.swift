import Foundation
import Locking
import Redis
import StatehouseTestClients
import Testing

/// What a handler saw, as text: `connected`, `disconnected <kind>`, `<channel>=<payload>`.
private func record(_ events: Recorder<String>) -> @Sendable (RedisSubscriber.Event) -> Void {
    { event in
        switch event {
        case .connected: events.append("connected")
        case .disconnected(let error): events.append("disconnected \(error.kind)")
        case .message(let channel, let payload):
            events.append(String(decoding: channel, as: UTF8.self) + "=" + String(decoding: payload, as: UTF8.self))
        }
    }
}

/// How many subscribers Redis counts for `channel` (`PUBSUB NUMSUB`).
private func subscribers(_ redis: RedisConnection, _ channel: String) throws -> Int64 {
    try redis.command("PUBSUB", "NUMSUB", channel).array?.last?.integer ?? -1
}

@Suite(.serialized) struct RedisSubscriberTests {
    @Test func messagesArriveInOrder() async throws {
        let events = Recorder<String>()
        let (receivers, arrived) = try await withRedis { server, redis in
            let subscriber = RedisSubscriber(
                try RedisEndpoint(url: server.endpointURL), name: "order test", handler: record(events))
            defer { subscriber.stop() }
            subscriber.start(channels: [Array(utf8: "a"), Array(utf8: "b")])
            try check(eventually { events.values.first == "connected" }, "never connected: \(events.values)")
            var receivers: [Int64] = []
            for index in 0..<200 {
                receivers.append(try redis.command("PUBLISH", index % 3 == 0 ? "b" : "a", "\(index)").integer ?? -1)
            }
            let arrived = eventually { events.values.count == 201 }
            // The connection's name is the one given, spaces replaced.
            let clients = try redis.command("CLIENT", "LIST").string ?? ""
            try check(clients.contains("name=order_test"), "CLIENT LIST: \(clients)")
            return (receivers, arrived)
        }
        #expect(arrived)
        #expect(receivers == Array(repeating: 1, count: 200))
        #expect(events.values == ["connected"] + (0..<200).map { "\($0 % 3 == 0 ? "b" : "a")=\($0)" })
    }

    @Test func subscribeAfterStartAndUnsubscribe() async throws {
        let events = Recorder<String>()
        let (firstCount, afterUnsubscribe) = try await withRedis { server, redis in
            let subscriber = RedisSubscriber(
                try RedisEndpoint(url: server.endpointURL), name: "later", handler: record(events))
            defer { subscriber.stop() }
            subscriber.start(channels: [])
            try check(eventually { events.values == ["connected"] }, "never connected: \(events.values)")
            subscriber.subscribe([Array(utf8: "late"), Array(utf8: "other")])
            try check(eventually { try subscribers(redis, "late") == 1 }, "never subscribed to late")
            let firstCount = try redis.command("PUBLISH", "late", "one").integer
            _ = try redis.command("PUBLISH", "other", "two")
            try check(eventually { events.values.count == 3 }, "messages missing: \(events.values)")
            subscriber.unsubscribe([Array(utf8: "late")])
            // From here no message of "late" may reach the handler, even one Redis sends before it unsubscribes.
            _ = try redis.command("PUBLISH", "late", "dropped")
            try check(eventually { try subscribers(redis, "late") == 0 }, "still subscribed to late")
            let afterUnsubscribe = try redis.command("PUBLISH", "late", "nobody").integer
            _ = try redis.command("PUBLISH", "other", "three")  // still subscribed
            try check(eventually { events.values.count == 4 }, "message on other missing: \(events.values)")
            return (firstCount, afterUnsubscribe)
        }
        #expect(firstCount == 1)
        #expect(afterUnsubscribe == 0)
        #expect(events.values == ["connected", "late=one", "other=two", "other=three"])
    }

    @Test func reconnectsAfterRedisRestarts() async throws {
        let events = Recorder<String>()
        let received = try await blocking { () throws -> Bool in
            let server = try RedisTestServer.start()
            defer { server.stop() }
            let endpoint = try RedisEndpoint(url: server.endpointURL)
            let subscriber = RedisSubscriber(endpoint, name: "restart", handler: record(events))
            defer { subscriber.stop() }
            subscriber.start(channels: [Array(utf8: "news")])
            try check(eventually { events.values == ["connected"] }, "never connected: \(events.values)")
            server.kill()
            try check(eventually { events.values.count == 2 }, "no disconnected: \(events.values)")
            // Subscribed while down: taken up when it reconnects.
            subscriber.subscribe([Array(utf8: "extra")])
            try server.restart()
            try check(eventually { events.values.count == 3 }, "never reconnected: \(events.values)")
            let redis = try RedisConnection(endpoint)
            _ = try redis.command("PUBLISH", "news", "after")
            _ = try redis.command("PUBLISH", "extra", "too")
            return eventually { events.values.count == 5 }
        }
        #expect(received)
        let values = events.values
        #expect(values.count == 5)
        #expect(values.first == "connected")
        #expect(values.dropFirst().first?.hasPrefix("disconnected ") == true)
        #expect(Array(values.dropFirst(2)) == ["connected", "news=after", "extra=too"])
    }

    @Test func reportsDisconnectedOnceWhenRedisIsAbsent() async throws {
        let events = Recorder<String>()
        let (stopMs, after) = try await blocking { () throws -> (Double, [String]) in
            let missing = "unix:///tmp/redis-test-absent-\(UUID().uuidString.prefix(8)).sock"
            let subscriber = RedisSubscriber(try RedisEndpoint(url: missing), name: "absent", handler: record(events))
            subscriber.start(channels: [Array(utf8: "x")])
            try check(eventually { !events.values.isEmpty }, "nothing reported")
            // Several attempts (100, 200, 400 ms apart) without a second report.
            _ = eventually(timeoutMs: 800) { false }
            let started = Date()
            subscriber.stop()
            return (Date().timeIntervalSince(started) * 1000, events.values)
        }
        #expect(after == ["disconnected connection"])
        #expect(stopMs < 1000)
    }

    @Test func stopIsPromptAndNoHandlerRunsAfterIt() async throws {
        let events = Recorder<String>()
        let stopped = Locked(false)
        let lateCalls = Locked(0)
        let (stopMs, threadSeen, threadGone) = try await withRedis { server, redis in
            let subscriber = RedisSubscriber(try RedisEndpoint(url: server.endpointURL), name: "stop") { event in
                if stopped.withLock({ $0 }) { lateCalls.withLock { $0 += 1 } }
                record(events)(event)
            }
            subscriber.start(channels: [Array(utf8: "busy")])
            try check(eventually { events.values == ["connected"] }, "never connected: \(events.values)")
            let threadSeen = Self.threadNames().contains(RedisSubscriber.threadName)
            // Messages are flowing while it stops.
            let publisher = try RedisConnection(try RedisEndpoint(url: server.endpointURL))
            _ = try publisher.pipeline((0..<500).map { [Array(utf8: "PUBLISH"), Array(utf8: "busy"), Array(utf8: "\($0)")] })
            let started = Date()
            subscriber.stop()
            let stopMs = Date().timeIntervalSince(started) * 1000
            stopped.withLock { $0 = true }
            subscriber.stop()  // idempotent
            _ = try publisher.pipeline((0..<100).map { [Array(utf8: "PUBLISH"), Array(utf8: "busy"), Array(utf8: "\($0)")] })
            // Redis forgets the subscriber once its connection is closed.
            try check(eventually { try subscribers(redis, "busy") == 0 }, "the subscriber's connection stayed open")
            return (stopMs, threadSeen, !Self.threadNames().contains(RedisSubscriber.threadName))
        }
        #expect(stopMs < 1000)
        #expect(lateCalls.withLock { $0 } == 0)
        #expect(threadSeen)
        #expect(threadGone)
        #expect(events.values.first == "connected")
    }

    @Test func stopBeforeStartAndFromTheHandler() async throws {
        let events = Recorder<String>()
        try await withRedis { server, _ in
            let endpoint = try RedisEndpoint(url: server.endpointURL)
            let never = RedisSubscriber(endpoint, name: "never", handler: record(events))
            never.stop()
            never.start(channels: [Array(utf8: "x")])  // after stop: does nothing
            let holder = Locked<RedisSubscriber?>(nil)
            let selfStopping = RedisSubscriber(endpoint, name: "self") { event in
                events.append("self \(event)")
                holder.withLock { $0 }?.stop()  // on its own thread: must not deadlock
            }
            holder.withLock { $0 = selfStopping }
            selfStopping.start(channels: [])
            try check(eventually { events.values.count == 1 }, "no event: \(events.values)")
            selfStopping.stop()  // returns once the thread has ended
            holder.withLock { $0 = nil }
        }
        #expect(events.values == ["self connected"])
    }

    /// The names of this process's threads (`/proc/self/task/*/comm`).
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}
