internal import CHiredis
#if canImport(Glibc)
import Glibc
#endif

/// The C side of a connection: argv packing, reply conversion, failures, and the non-blocking-style steps the
/// subscriber's thread drives (append, flush, read what is there, take a parsed reply).
extension RedisConnection {
    /// The context, or ``RedisError/Kind/closed`` when the connection is broken or closed.
    func openContext() throws(RedisError) -> UnsafeMutablePointer<redisContext> {
        switch state {
        case .open(let context):
            return context
        case .broken(let error):
            throw RedisError(.closed, "the connection is unusable after an earlier failure (\(error)); make a new one")
        case .closed:
            throw RedisError(.closed, "the connection to \(endpoint) is closed")
        }
    }

    /// Classifies the context's failure (`c->err`, `c->errstr`, and `code`, the `errno` right after the call), frees
    /// the context, and moves to `broken`. hiredis 0.14 keeps `c->err` once set (every later call fails at once), and
    /// a late reply would answer the next command, so no failure is recoverable.
    func fail(_ context: UnsafeMutablePointer<redisContext>, errno code: Int32) -> RedisError {
        let text = String(cString: chiredis_errstr(context))
        let error: RedisError
        switch context.pointee.err {
        case REDIS_ERR_IO where code == EAGAIN || code == EWOULDBLOCK:
            error = RedisError(.timeout, "no reply from \(endpoint) within \(commandTimeoutMs) ms")
        case REDIS_ERR_IO:
            error = RedisError(.io, "I/O on \(endpoint) failed: \(text)")
        case REDIS_ERR_EOF:
            error = RedisError(.closed, "\(endpoint) closed the connection (\(text))")
        case REDIS_ERR_PROTOCOL:
            error = RedisError(.protocol, "\(endpoint) sent bytes that are not RESP2: \(text)")
        default:
            error = RedisError(.io, "the connection to \(endpoint) failed: \(text)")
        }
        redisFree(context)
        state = .broken(error)
        return error
    }

    /// The socket's file descriptor while open.
    var fileDescriptor: Int32? {
        if case .open(let context) = state { return context.pointee.fd }
        return nil
    }

    /// Appends one command to the output buffer (no I/O).
    func append(_ arguments: [[UInt8]]) throws(RedisError) {
        precondition(!arguments.isEmpty, "a Redis command needs at least its name")
        let context = try openContext()
        let (status, code) = Self.withArgv(arguments) { count, argv, lengths in
            (redisAppendCommandArgv(context, count, argv, lengths), errno)
        }
        guard status == REDIS_OK else { throw fail(context, errno: code) }
    }

    /// Writes the whole output buffer (blocking; bounded by the command timeout).
    func flush() throws(RedisError) {
        let context = try openContext()
        var done: Int32 = 0
        while done == 0 {
            guard redisBufferWrite(context, &done) == REDIS_OK else { throw fail(context, errno: errno) }
        }
    }

    /// A reply already parsed from the bytes read so far, or nil when they hold no complete reply (no I/O).
    func takeBufferedReply() throws(RedisError) -> RedisReply? {
        let context = try openContext()
        var raw: UnsafeMutableRawPointer?
        guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { throw fail(context, errno: errno) }
        guard let raw else { return nil }
        defer { freeReplyObject(raw) }
        return Self.reply(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// One read(2) into the reader: call when poll(2) said the socket is readable, so it does not block.
    func readAvailable() throws(RedisError) {
        let context = try openContext()
        guard redisBufferRead(context) == REDIS_OK else { throw fail(context, errno: errno) }
    }

    /// Calls `body` with hiredis's argv: the count, a pointer per argument and each argument's length in bytes.
    /// The arguments are laid out in one buffer, so every pointer stays valid for the whole call.
    static func withArgv<Result>(
        _ arguments: [[UInt8]],
        _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> Result
    ) -> Result {
        var storage: [UInt8] = []
        storage.reserveCapacity(arguments.reduce(1) { $0 + $1.count })
        var offsets: [Int] = []
        var lengths: [Int] = []
        offsets.reserveCapacity(arguments.count)
        lengths.reserveCapacity(arguments.count)
        for argument in arguments {
            offsets.append(storage.count)
            lengths.append(argument.count)
            storage.append(contentsOf: argument)
        }
        storage.append(0)  // never empty, so the buffer has an address even when every argument is
        return storage.withUnsafeBytes { bytes in
            let base = bytes.baseAddress!
            var pointers = offsets.map { Optional(base.advanced(by: $0).assumingMemoryBound(to: CChar.self)) }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { lengths in
                    body(Int32(arguments.count), argv.baseAddress!, lengths.baseAddress!)
                }
            }
        }
    }

    /// A Swift copy of a hiredis reply tree (the caller frees `raw`).
    static func reply(_ raw: UnsafePointer<redisReply>) -> RedisReply {
        let reply = raw.pointee
        switch reply.type {
        case REDIS_REPLY_STATUS:
            return .status(String(decoding: bytes(reply), as: UTF8.self))
        case REDIS_REPLY_ERROR:
            return .error(String(decoding: bytes(reply), as: UTF8.self))
        case REDIS_REPLY_INTEGER:
            return .integer(Int64(reply.integer))
        case REDIS_REPLY_STRING:
            return .bulk(bytes(reply))
        case REDIS_REPLY_ARRAY:
            guard let elements = reply.element else { return .array([]) }
            return .array((0..<reply.elements).map { index in
                elements[index].map { Self.reply($0) } ?? .null
            })
        default:  // REDIS_REPLY_NIL
            return .null
        }
    }

    private static func bytes(_ reply: redisReply) -> [UInt8] {
        guard let text = reply.str, reply.len > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: text, count: reply.len))
    }
}
