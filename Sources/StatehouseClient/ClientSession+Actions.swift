extension ClientSession {
    /// Queues an action for `store`: written now when live, else once a connection opens (in order). Returns its
    /// sequence number, which names it in ``Output/completed(seq:_:)``; when ``maxQueuedActions`` actions already
    /// await their ack it completes at once with ``ClientError/queueFull(limit:)``.
    /// - Parameters:
    ///   - id: the idempotency key (1–255 printable ASCII bytes), kept for every retry of this action.
    ///   - body: the action as an FSA JSON object.
    ///   - settleTimeoutMs: ack only once the action and its effects settled (ms, 0…600,000), or nil.
    package mutating func send(
        store: String, id: String, body: [UInt8], settleTimeoutMs: Int?, into outputs: inout [Output]
    ) -> UInt64 {
        let seq = nextSeq
        nextSeq += 1
        guard phase != .closed else {
            outputs.append(.completed(seq: seq, .failure(.closed)))
            return seq
        }
        guard pending.count < maxQueuedActions else {
            outputs.append(.completed(seq: seq, .failure(.queueFull(limit: maxQueuedActions))))
            return seq
        }
        pending.append(PendingAction(seq: seq, store: store, id: id, body: body, settleTimeoutMs: settleTimeoutMs))
        if phase == .live { write(pendingAt: pending.count - 1, into: &outputs) }
        return seq
    }

    /// Writes the pending action at `index` on the current connection; the first write arms its ack timeout.
    mutating func write(pendingAt index: Int, into outputs: inout [Output]) {
        outputs.append(.write(Self.actionMessage(pending[index])))
        guard !pending[index].armed else { return }
        pending[index].armed = true
        outputs.append(.armAckTimer(seq: pending[index].seq, settleTimeoutMs: pending[index].settleTimeoutMs))
    }

    /// The ack timer of `seq` fired: it fails with ``ClientError/timedOut(id:afterMs:)`` and is not sent again.
    package mutating func ackTimedOut(seq: UInt64, afterMs: Int, into outputs: inout [Output]) {
        guard let index = pending.firstIndex(where: { $0.seq == seq }) else { return }
        let action = pending.remove(at: index)
        outputs.append(.completed(seq: seq, .failure(.timedOut(id: action.id, afterMs: afterMs))))
    }

    /// Completes the pending action with `ref` (its sequence number as text), if there is one.
    mutating func complete(ref: String, with result: Result<Ack, ClientError>, into outputs: inout [Output]) {
        guard let seq = Self.seq(ofRef: ref), let index = pending.firstIndex(where: { $0.seq == seq }) else { return }
        pending.remove(at: index)
        outputs.append(.completed(seq: seq, result))
    }

    /// The idempotency key of the pending action with `ref`.
    func pendingID(ref: String) -> String? {
        guard let seq = Self.seq(ofRef: ref) else { return nil }
        return pending.first { $0.seq == seq }?.id
    }

    /// `"12"` → 12: exactly the `ref` ``actionMessage(_:)`` wrote (not `"012"` or `"+12"`).
    static func seq(ofRef ref: String) -> UInt64? {
        guard let seq = UInt64(ref), String(seq) == ref else { return nil }
        return seq
    }
}
