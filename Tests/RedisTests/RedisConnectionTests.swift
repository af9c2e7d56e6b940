import Foundation
import Redis
import StatehouseTestClients
import Testing

@Suite(.serialized) struct RedisConnectionTests {
    @Test func binaryArgumentsRoundTrip() async throws {
        // NUL, CR LF (RESP2's own delimiter), a byte that is not UTF-8, and an empty value.
        let key: [UInt8] = [0x6b, 0x00, 0x0d, 0x0a, 0xff]
        let value: [UInt8] = [0x00, 0x0d, 0x0a, 0x24, 0x33, 0x0d, 0x0a, 0xfe, 0x00]
        let (stored, read, emptyRead, length) = try await withRedis { _, redis in
            let stored = try redis.command([Array(utf8: "SET"), key, value])
            let read = try redis.command([Array(utf8: "GET"), key])
            _ = try redis.command([Array(utf8: "SET"), Array(utf8: "empty"), []])
            let emptyRead = try redis.command([Array(utf8: "GET"), Array(utf8: "empty")])
            let length = try redis.command([Array(utf8: "STRLEN"), key])
            return (stored, read, emptyRead, length)
        }
        #expect(stored == .status("OK"))
        #expect(read == .bulk(value))
        #expect(read.string == nil)  // not UTF-8
        #expect(read.bytes == value)
        #expect(emptyRead == .bulk([]))
        #expect(length == .integer(Int64(value.count)))
    }

    @Test func errorReplyIsReturnedNotThrown() async throws {
        let (unknown, wrongType, ping, broken) = try await withRedis { _, redis in
            let unknown = try redis.command("NOPE", "x")
            _ = try redis.command("SET", "s", "text")
            let wrongType = try redis.command("LPUSH", "s", "x")
            let ping = try redis.command("PING")
            return (unknown, wrongType, ping, redis.isBroken)
        }
        #expect(unknown.isError)
        #expect(unknown.string == nil)
        guard case .error(let text) = unknown else { Issue.record("not an error: \(unknown)"); return }
        #expect(text.hasPrefix("ERR unknown command"))
        guard case .error(let wrongText) = wrongType else { Issue.record("not an error: \(wrongType)"); return }
        #expect(wrongText.hasPrefix("WRONGTYPE"))
        #expect(ping == .status("PONG"))
        #expect(!broken)
    }

    @Test func replyTypes() async throws {
        let replies = try await withRedis { _, redis in
            [
                try redis.command("INCR", "counter"),
                try redis.command("INCRBY", "counter", "-5"),
                try redis.command("GET", "counter"),
                try redis.command("GET", "missing"),
                try redis.command("RPUSH", "list", "a", "b", "c"),
                try redis.command("LRANGE", "list", "0", "-1"),
                try redis.command("MGET", "list-missing", "counter"),
                try redis.command("BLPOP", "nothing", "0.01"),
                try redis.command("LRANGE", "missing", "0", "-1"),
            ]
        }
        #expect(replies[0] == .integer(1))
        #expect(replies[1] == .integer(-4))
        #expect(replies[2] == .bulk(Array(utf8: "-4")))
        #expect(replies[2].integer == -4)
        #expect(replies[2].string == "-4")
        #expect(replies[3] == .null)
        #expect(replies[3].string == nil && replies[3].array == nil && replies[3].bytes == nil)
        #expect(replies[4] == .integer(3))
        #expect(replies[5] == .array([.bulk(Array(utf8: "a")), .bulk(Array(utf8: "b")), .bulk(Array(utf8: "c"))]))
        #expect(replies[5].array?.compactMap(\.string) == ["a", "b", "c"])
        #expect(replies[6] == .array([.null, .bulk(Array(utf8: "-4"))]))
        #expect(replies[7] == .null)  // the null array (*-1) of a timed-out BLPOP
        #expect(replies[8] == .array([]))
        #expect(RedisReply.status("OK").string == "OK")
        #expect(RedisReply.status("12").integer == 12)
        #expect(RedisReply.status("OK").bytes == Array(utf8: "OK"))
        #expect(RedisReply.integer(3).string == nil)
        #expect(RedisReply.bulk(Array(utf8: "x1")).integer == nil)
    }

    @Test func pipelineOfAThousandKeepsOrder() async throws {
        let (replies, total) = try await withRedis { _, redis in
            var commands: [[[UInt8]]] = []
            for index in 0..<1000 {
                if index % 2 == 0 {
                    commands.append([Array(utf8: "INCR"), Array(utf8: "n")])
                } else {
                    commands.append([Array(utf8: "SET"), Array(utf8: "k\(index)"), Array(utf8: "v\(index)")])
                }
            }
            commands[500] = [Array(utf8: "NOPE")]  // an error reply in the middle does not disturb the order
            var replies = try redis.pipeline(commands)
            replies += try redis.pipeline((0..<1000).filter { $0 % 2 == 1 }.map { [Array(utf8: "GET"), Array(utf8: "k\($0)")] })
            let total = try redis.command("GET", "n")
            return (replies, total)
        }
        #expect(replies.count == 1500)
        var expectedCounter: Int64 = 0
        for index in 0..<1000 {
            if index == 500 {
                #expect(replies[index].isError)
            } else if index % 2 == 0 {
                expectedCounter += 1
                #expect(replies[index] == .integer(expectedCounter), "reply \(index)")
            } else {
                #expect(replies[index] == .status("OK"), "reply \(index)")
            }
        }
        let gets = replies[1000...].map { $0.string ?? "?" }
        #expect(gets == (0..<1000).filter { $0 % 2 == 1 }.map { "v\($0)" })
        #expect(total.integer == expectedCounter)
        let empty = try await withRedis { _, redis in try redis.pipeline([]) }
        #expect(empty.isEmpty)
    }

    @Test func connectionRefused() async throws {
        let missing = "/tmp/redis-test-missing-\(UUID().uuidString.prefix(8)).sock"
        let port = try unusedTCPPort()
        for url in ["unix://\(missing)", "redis://127.0.0.1:\(port)"] {
            let endpoint = try RedisEndpoint(url: url)
            #expect {
                try RedisConnection(endpoint, connectTimeoutMs: 500)
            } throws: { error in
                guard let error = error as? RedisError else { return false }
                return error.kind == .connection && error.message.hasPrefix("connect to \(endpoint): ")
            }
        }
    }

    @Test func serverKilledMidUse() async throws {
        let (kind, broken, laterKind) = try await blocking { () throws -> (RedisError.Kind?, Bool, RedisError.Kind?) in
            let redis = try RedisTestServer.start()
            defer { redis.stop() }
            let connection = try RedisConnection(try RedisEndpoint(url: redis.endpointURL))
            try check(try connection.command("SET", "a", "1") == .status("OK"), "SET failed")
            redis.kill()
            let kind = failureKind { () throws(RedisError) in try connection.command("GET", "a") }
            let laterKind = failureKind { () throws(RedisError) in try connection.command("PING") }
            return (kind, connection.isBroken, laterKind)
        }
        #expect(kind == .io || kind == .closed)
        #expect(broken)
        #expect(laterKind == .closed)
    }

    /// hiredis 0.14 keeps `c->err` once a read times out (every later call fails at once), and the late reply would
    /// answer the next command: a timeout breaks the connection.
    @Test func commandTimeoutBreaksTheConnection() async throws {
        let (kind, elapsedMs, broken, laterKind) = try await blocking {
            () throws -> (RedisError.Kind?, Double, Bool, RedisError.Kind?) in
            let redis = try RedisTestServer.start()
            defer { redis.stop() }
            let connection = try RedisConnection(try RedisEndpoint(url: redis.endpointURL), commandTimeoutMs: 200)
            let started = Date()
            let kind = failureKind { () throws(RedisError) in try connection.command("BLPOP", "nothing", "5") }
            let elapsedMs = Date().timeIntervalSince(started) * 1000
            let laterKind = failureKind { () throws(RedisError) in try connection.command("PING") }
            return (kind, elapsedMs, connection.isBroken, laterKind)
        }
        #expect(kind == .timeout)
        #expect(elapsedMs >= 150 && elapsedMs < 3000)
        #expect(broken)
        #expect(laterKind == .closed)
    }

    @Test func closeIsIdempotent() async throws {
        let (broken, kind) = try await withRedis { _, redis in
            redis.close()
            redis.close()
            let kind = failureKind { () throws(RedisError) in try redis.command("PING") }
            return (redis.isBroken, kind)
        }
        #expect(broken)
        #expect(kind == .closed)
    }

    @Test func functionLoadAndFCall() async throws {
        let library = """
            #!lua name=statehousetest
            redis.register_function('echo_first', function(keys, args) return args[1] end)
            redis.register_function('bump', function(keys, args)
              return redis.call('INCRBY', keys[1], args[1])
            end)
            """
        let (loaded, echoed, bumped, again) = try await withRedis { _, redis in
            let loaded = try redis.command("FUNCTION", "LOAD", library)
            let echoed = try redis.command("FCALL", "echo_first", "0", "hello")
            let bumped = try redis.command("FCALL", "bump", "1", "counter", "5")
            let again = try redis.command("FUNCTION", "LOAD", library)  // exists: an error reply
            return (loaded, echoed, bumped, again)
        }
        #expect(loaded == .bulk(Array(utf8: "statehousetest")))
        #expect(echoed == .bulk(Array(utf8: "hello")))
        #expect(bumped == .integer(5))
        #expect(again.isError)
    }

    @Test func publishCountsReceivers() async throws {
        let count = try await withRedis { _, redis in try redis.command("PUBLISH", "nobody-listens", "hi") }
        #expect(count == .integer(0))
    }

    @Test func databaseIsSelected() async throws {
        let (inThree, inZero, refusedKind) = try await blocking {
            () throws -> (RedisReply, RedisReply, RedisError.Kind?) in
            let redis = try RedisTestServer.start()
            defer { redis.stop() }
            let three = try RedisConnection(try RedisEndpoint(url: redis.endpointURL + "?db=3"))
            _ = try three.command("SET", "where", "three")
            let zero = try RedisConnection(try RedisEndpoint(url: redis.endpointURL))
            let refusedKind = failureKind { () throws(RedisError) in
                try RedisConnection(try RedisEndpoint(url: redis.endpointURL + "?db=99"))
            }
            return (try three.command("GET", "where"), try zero.command("GET", "where"), refusedKind)
        }
        #expect(inThree == .bulk(Array(utf8: "three")))
        #expect(inZero == .null)
        #expect(refusedKind == .connection)
    }

    @Test func tcpEndpoint() async throws {
        let (url, ping) = try await blocking { () throws -> (String, RedisReply) in
            let redis = try RedisTestServer.start(tcpPort: try unusedTCPPort())
            defer { redis.stop() }
            let connection = try RedisConnection(try RedisEndpoint(url: redis.endpointURL))
            return (redis.endpointURL, try connection.command("PING"))
        }
        #expect(url.hasPrefix("redis://127.0.0.1:"))
        #expect(ping == .status("PONG"))
    }

    @Test func appendOnlyServerKeepsWritesAcrossAKill() async throws {
        let value = try await withRedis(appendOnly: true) { redis, connection in
            _ = try connection.command("SET", "durable", "yes")
            redis.kill()
            try redis.restart()
            let again = try RedisConnection(try RedisEndpoint(url: redis.endpointURL))
            return try again.command("GET", "durable")
        }
        #expect(value == .bulk(Array(utf8: "yes")))
    }
}
