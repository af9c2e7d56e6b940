/// The Redis names of one store's data (docs/cluster.md, *Key layout*): every key shares the hash tag `{s:NAME}`,
/// so a Redis Cluster keeps a store's keys in one slot and the commit function may touch them all.
///
/// ## Thread safety
/// Immutable.
struct StoreKeys: Sendable {
    let name: String
    /// `NODE:TOKEN` of the owner, with `PX` = the lease TTL.
    let lease: [UInt8]
    /// The fencing counter (`INCR` per lease taken).
    let fence: [UInt8]
    /// A hash: `epoch`, `reducer`, `version` (newest committed), `token` (of its writer).
    let meta: [UInt8]
    /// The journal: a stream with one entry per version, id `VERSION-0`.
    let log: [UInt8]
    /// A hash: `version`, `state`.
    let snapshot: [UInt8]
    /// A hash of idempotency keys: key → `FINGERPRINT:VERSION:EXPIRES_MS:STATE`.
    let keys: [UInt8]
    /// A sorted set: key → expiry (ms since 1970), to forget expired keys.
    let keyExpiries: [UInt8]
    /// The pub/sub channel of the store's committed changes.
    let changes: [UInt8]

    init(_ name: String) {
        self.name = name
        let tag = "{s:\(name)}:"
        lease = Array((tag + "lease").utf8)
        fence = Array((tag + "fence").utf8)
        meta = Array((tag + "meta").utf8)
        log = Array((tag + "log").utf8)
        snapshot = Array((tag + "snapshot").utf8)
        keys = Array((tag + "keys").utf8)
        keyExpiries = Array((tag + "keyexp").utf8)
        changes = Array((tag + "changes").utf8)
    }

    /// The pub/sub channel a node reads forwarded actions and their answers from.
    static func inbox(node: String) -> [UInt8] { Array("statehouse:node:\(node)".utf8) }
}

/// The Redis Function library every node loads (`FUNCTION LOAD REPLACE`) on each new connection: a store's lease,
/// and its whole commit as one atomic call (fencing check, version compare-and-set, `XADD`s, snapshot, keys,
/// `PUBLISH`).
enum ClusterFunctions {
    static let open = Array("statehouse_open".utf8)
    static let acquire = Array("statehouse_acquire".utf8)
    static let renew = Array("statehouse_renew".utf8)
    static let release = Array("statehouse_release".utf8)
    static let commit = Array("statehouse_commit".utf8)

    /// `FUNCTION LOAD REPLACE <library>`.
    static var load: [[UInt8]] { [Array("FUNCTION".utf8), Array("LOAD".utf8), Array("REPLACE".utf8), Array(library.utf8)] }

    static let library = """
#!lua name=statehouse

-- Statehouse's store functions (docs/cluster.md). Every key of one store shares the hash tag {s:NAME}.
-- A lease value is NODE:TOKEN; TOKEN comes from INCR on the store's fence counter, so it only grows.

-- KEYS: meta. ARGV: reducer, epoch. Makes the store's meta once; returns {epoch, reducer, version}.
local function open(keys, args)
  redis.call('HSETNX', keys[1], 'epoch', args[2])
  redis.call('HSETNX', keys[1], 'reducer', args[1])
  redis.call('HSETNX', keys[1], 'version', '0')
  local m = redis.call('HMGET', keys[1], 'epoch', 'reducer', 'version')
  return m
end

-- KEYS: lease, fence, meta. ARGV: node, leaseMs.
-- Takes the lease when it is free (or held by an earlier life of this node): {1, token, version}.
-- Else {0, holder, pttl}.
local function acquire(keys, args)
  local holder = redis.call('GET', keys[1])
  if holder then
    local node = string.match(holder, '^(.*):%d+$')
    if node ~= args[1] then
      return {0, holder, redis.call('PTTL', keys[1])}
    end
  end
  local token = redis.call('INCR', keys[2])
  redis.call('SET', keys[1], args[1] .. ':' .. token, 'PX', args[2])
  local version = redis.call('HGET', keys[3], 'version') or '0'
  return {1, token, version}
end

-- KEYS: lease. ARGV: NODE:TOKEN, leaseMs. 1 when renewed, 0 when the lease is not this one any more.
local function renew(keys, args)
  if redis.call('GET', keys[1]) == args[1] then
    redis.call('PEXPIRE', keys[1], args[2])
    return 1
  end
  return 0
end

-- KEYS: lease. ARGV: NODE:TOKEN. 1 when released.
local function release(keys, args)
  if redis.call('GET', keys[1]) == args[1] then
    redis.call('DEL', keys[1])
    return 1
  end
  return 0
end

-- KEYS: lease, meta, log, snapshot, keys, key expiries.
-- ARGV: NODE:TOKEN, token, expected version, now ms, retain, row count R, then R x (origin, action, key or ''),
--   then snapshot ('' for none), then key count K, then K x (key, value, expires ms), then channel, message,
--   then the most keys kept.
-- Refused, writing nothing, with FENCED when the lease is not NODE:TOKEN, VERSION when the store is not at the
-- expected version, DUPLICATE when a key of the batch is stored already and unexpired (its action was applied:
-- the node answers it from Redis instead).
local function commit(keys, args)
  if redis.call('GET', keys[1]) ~= args[1] then
    return redis.error_reply('FENCED the lease of this store is not ' .. args[1])
  end
  local version = tonumber(redis.call('HGET', keys[2], 'version') or '0')
  if version ~= tonumber(args[3]) then
    return redis.error_reply('VERSION the store is at ' .. version .. ', not ' .. args[3])
  end
  local token, now, retain = args[2], args[4], tonumber(args[5])
  local rows = tonumber(args[6])
  local keysAt = 7 + rows * 3 + 1
  for index = 1, tonumber(args[keysAt]) do
    local key = args[keysAt + 1 + (index - 1) * 3]
    local expires = redis.call('ZSCORE', keys[6], key)
    if expires and tonumber(expires) > tonumber(now) then
      return redis.error_reply('DUPLICATE ' .. key)
    end
  end
  local at = 7
  for _ = 1, rows do
    version = version + 1
    if args[at + 2] == '' then
      redis.call('XADD', keys[3], version .. '-0', 'o', args[at], 'a', args[at + 1], 't', token, 'ms', now)
    else
      redis.call('XADD', keys[3], version .. '-0', 'o', args[at], 'a', args[at + 1], 't', token, 'ms', now,
        'k', args[at + 2])
    end
    at = at + 3
  end
  redis.call('HSET', keys[2], 'version', version, 'token', token)
  local snapshot = args[at]
  at = at + 1
  if snapshot ~= '' then
    redis.call('HSET', keys[4], 'version', version, 'state', snapshot)
    if version > retain then
      redis.call('XTRIM', keys[3], 'MINID', (version - retain) .. '-0')
    end
  end
  local count = tonumber(args[at])
  at = at + 1
  for _ = 1, count do
    redis.call('HSET', keys[5], args[at], args[at + 1])
    redis.call('ZADD', keys[6], args[at + 2], args[at])
    at = at + 3
  end
  local expired = redis.call('ZRANGEBYSCORE', keys[6], '-inf', now, 'LIMIT', 0, 64)
  if #expired > 0 then
    redis.call('HDEL', keys[5], unpack(expired))
    redis.call('ZREM', keys[6], unpack(expired))
  end
  -- At most the newest `most` keys (the soonest to expire go first), as a node's memory keeps them.
  local over = redis.call('ZCARD', keys[6]) - tonumber(args[at + 2])
  if over > 0 then
    local oldest = redis.call('ZRANGE', keys[6], 0, over - 1)
    redis.call('HDEL', keys[5], unpack(oldest))
    redis.call('ZREM', keys[6], unpack(oldest))
  end
  if args[at] ~= '' then
    redis.call('PUBLISH', args[at], args[at + 1])
  end
  return version
end

redis.register_function('statehouse_open', open)
redis.register_function('statehouse_acquire', acquire)
redis.register_function('statehouse_renew', renew)
redis.register_function('statehouse_release', release)
redis.register_function('statehouse_commit', commit)
"""
}
