import Statehouse
public import StatehouseCore

extension RemoteStore {
    /// Sends `action` and returns once the server acknowledged it: reduced, with the version right after it. The
    /// store's own state message for that version precedes the ack on the wire, so ``version`` is at least
    /// `ack.version` when this returns (unless the store is resyncing, or was closed).
    ///
    /// At most once: the action carries an idempotency key (`id`, generated when nil); if the connection drops before
    /// the ack, it is sent again with the same key after the reconnect and the server answers from its record
    /// (`ack.replayed`) instead of applying it twice (for 10 minutes, docs/protocol.md). Sent while offline, it
    /// queues and goes out in order once live. Cancelling the calling task does not withdraw it.
    /// - Parameters:
    ///   - action: the action, written as a Flux Standard Action.
    ///   - id: an idempotency key, 1–255 printable ASCII bytes; nil for a fresh random one.
    /// - Throws: the server's refusal (``ClientError/server(code:message:status:)``: `invalid_action`,
    ///   `idempotency_key_reused`, `storage_full`, …), ``ClientError/queueFull(limit:)``,
    ///   ``ClientError/timedOut(id:afterMs:)``, ``ClientError/closed``, ``ClientError/decoding(_:)`` when `action`
    ///   does not encode as an enum case.
    @discardableResult
    public func send(_ action: R.Action, id: String? = nil) async throws(ClientError) -> Ack {
        return try await submit(action, id: id, settleTimeoutMs: nil)
    }

    /// Sends `action` and returns once it **and every effect it started, transitively**, have finished on the server
    /// (`"wait":"settled"`), as `POST …/actions?wait=settled` does.
    /// - Parameters:
    ///   - timeout: how long the server waits for the effects, 0…600 s (ms precision).
    /// - Throws: as ``send(_:id:)``, and ``ClientError/notSettled(code:message:version:)`` when the action was
    ///   applied but its effects did not finish in time (`settle_timeout`: they keep running) or the server shut down
    ///   first (`shutting_down`). Plain actions sent after it on this server are acknowledged after it.
    @discardableResult
    public func sendAndSettle(_ action: R.Action, timeout: Duration, id: String? = nil) async throws(ClientError) -> Ack {
        let ms = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        return try await submit(action, id: id, settleTimeoutMs: Int(min(max(ms, 0), 600_000)))
    }

    private func submit(_ action: R.Action, id: String?, settleTimeoutMs: Int?) async throws(ClientError) -> Ack {
        guard let body = FluxStandardActionEncoding.encode(action) else {
            throw .decoding("\(action) does not encode as a Flux Standard Action; actions must be enum cases.")
        }
        let store = name
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Ack, ClientError>, Never>) in
            let accepted = server.onLoop { connection in
                connection.send(store: store, id: id, body: body, settleTimeoutMs: settleTimeoutMs) {
                    continuation.resume(returning: $0)
                }
            }
            if !accepted { continuation.resume(returning: .failure(.closed)) }
        }
        return try result.get()
    }
}
