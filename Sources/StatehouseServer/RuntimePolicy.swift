import UVLoop

/// The part of the configuration a SIGHUP may change while the server runs (see ``Server/reload(from:adjusting:)``):
/// who may do what (`auth`), which browser origins are allowed (`cors`), and the limits, stream settings and timeouts
/// that are read when a connection opens or a request is answered. An immutable value: each loop holds its own copy,
/// replaced whole on its thread, so a request sees one policy from start to end.
///
/// Not in it (they need a restart): `limits.maxConnections` (it sizes the listeners' admission against the file
/// descriptor limit at start) and `streams.historySize` (each store's history is sized when the store is made).
///
/// ## Thread safety
/// Sendable (an immutable value).
struct RuntimePolicy: Sendable {
    let auth: AccessPolicy?
    let cors: CORSPolicy?
    /// Read per connection (parser limits, `maxMessageBytes`) or per request (`maxStores`).
    let limits: ServerConfiguration.Limits
    /// Read per connection (`writeHighWaterBytes`, `maxLagSeconds`, `sseHeartbeatMs`).
    let streams: ServerConfiguration.Streams
    /// Read per connection.
    let timeouts: ServerConfiguration.Timeouts
    /// Every connection's write flow control and write-stall timeout (`streams.writeHighWaterBytes`, resuming at
    /// half of it; `timeouts.writeStallMs`).
    let writeLimits: WriteLimits

    init(_ configuration: ServerConfiguration) {
        auth = configuration.auth
        cors = configuration.cors
        limits = configuration.limits
        streams = configuration.streams
        timeouts = configuration.timeouts
        writeLimits = WriteLimits(
            highWaterBytes: configuration.streams.writeHighWaterBytes, stallTimeoutMs: configuration.timeouts.writeStallMs)
    }
}
