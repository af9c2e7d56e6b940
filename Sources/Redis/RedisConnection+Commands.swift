internal import CHiredis
#if canImport(Glibc)
import Glibc
#endif

extension RedisConnection {
    /// One command, one round trip. A Redis error reply is returned as `.error` (NOT thrown); thrown: io, timeout,
    /// closed, protocol (the connection is then unusable: `isBroken` true; make a new one).
    ///
    /// `arguments` is the command and its arguments, each sent as a bulk string exactly as given
    /// (e.g. `[Array("SET".utf8), key, value]`); it must not be empty (a precondition).
    /// - Throws: ``RedisError`` of kind ``RedisError/Kind/io``, ``RedisError/Kind/timeout`` (no reply within
    ///   ``commandTimeoutMs``), ``RedisError/Kind/protocol`` or ``RedisError/Kind/closed`` (EOF from the server, or
    ///   the connection was already broken or closed).
    public func command(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        precondition(!arguments.isEmpty, "a Redis command needs at least its name")
        let context = try openContext()
        let (raw, code) = Self.withArgv(arguments) { count, argv, lengths in
            let raw = redisCommandArgv(context, count, argv, lengths)
            return (raw, errno)
        }
        guard let raw else { throw fail(context, errno: code) }
        defer { freeReplyObject(raw) }
        return Self.reply(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// ``command(_:)-([[UInt8]])`` with each argument's UTF-8 bytes: `try connection.command("SET", "k", "v")`.
    /// - Throws: as ``command(_:)-([[UInt8]])``.
    public func command(_ arguments: String...) throws(RedisError) -> RedisReply {
        try command(arguments.map { Array($0.utf8) })
    }

    /// Pipelining: all commands appended, then all replies read in order: one round trip for the lot.
    ///
    /// Returns one reply per command, in the commands' order; error replies are `.error` elements, as in
    /// ``command(_:)-([[UInt8]])``. An empty list returns `[]` without I/O. Each command must be non-empty.
    /// ``commandTimeoutMs`` bounds each wait for more bytes, not the whole pipeline.
    /// - Throws: as ``command(_:)-([[UInt8]])``; the replies read before the failure are lost with the connection.
    public func pipeline(_ commands: [[[UInt8]]]) throws(RedisError) -> [RedisReply] {
        guard !commands.isEmpty else { return [] }
        let context = try openContext()
        for arguments in commands {
            precondition(!arguments.isEmpty, "a Redis command needs at least its name")
            let (status, code) = Self.withArgv(arguments) { count, argv, lengths in
                (redisAppendCommandArgv(context, count, argv, lengths), errno)
            }
            guard status == REDIS_OK else { throw fail(context, errno: code) }
        }
        var replies: [RedisReply] = []
        replies.reserveCapacity(commands.count)
        for _ in commands {
            var raw: UnsafeMutableRawPointer?
            let status = redisGetReply(context, &raw)
            let code = errno
            guard status == REDIS_OK, let raw else { throw fail(context, errno: code) }
            replies.append(Self.reply(raw.assumingMemoryBound(to: redisReply.self)))
            freeReplyObject(raw)
        }
        return replies
    }
}
