extension ClientSession {
    /// Begins: the first connect.
    package mutating func start(into outputs: inout [Output]) {
        guard phase == .idle else { return }
        phase = .connecting(attempt: 0)
        outputs.append(.openTransport)
    }

    /// The transport is open: resubscribe every store, then send every unacknowledged action, oldest first.
    package mutating func opened(into outputs: inout [Output]) {
        guard case .connecting(let attempt) = phase else { return }
        phase = .live
        openedAfterAttempts = attempt
        heardFromServer = false
        for key in subscriptions.keys.sorted() {
            guard var subscription = subscriptions[key], subscription.failure == nil else { continue }
            subscription.resyncing = false
            subscriptions[key] = subscription
            outputs.append(.write(Self.subscribeMessage(key: key, subscription)))
        }
        for index in pending.indices { write(pendingAt: index, into: &outputs) }
        reportStatus(into: &outputs)
    }

    /// The transport ended (or never opened). Unacknowledged actions wait to be sent again on the next connection;
    /// a handshake the server refused with a 4xx status but 408 and 429 (401, 403, 404: a retry cannot succeed by
    /// itself) fails them instead, and whoever waits for a first snapshot.
    package mutating func ended(refusal: ClientError?, into outputs: inout [Output]) {
        let attempt: Int
        switch phase {
        case .idle, .waiting, .closed: return
        case .connecting(let failed): attempt = failed + 1
        // A connection that carried no server message counts as a failed attempt (a server that accepts and drops
        // at once, a first message over `maxMessageBytes`): the backoff keeps growing instead of hammering it.
        case .live: attempt = heardFromServer ? 0 : openedAfterAttempts + 1
        }
        if case .server(_, _, let status?)? = refusal, (400..<500).contains(status), status != 408, status != 429 {
            for action in pending {
                outputs.append(.completed(seq: action.seq, .failure(refusal!)))
            }
            pending.removeAll()
            outputs.append(.connectionRefused(refusal!))
        }
        phase = .waiting(attempt: attempt)
        outputs.append(.scheduleRetry(ms: backoff.delayMs(attempt: attempt, using: &random)))
        reportStatus(into: &outputs)
    }

    /// The backoff timer fired: connect again.
    package mutating func retryTimerFired(into outputs: inout [Output]) {
        guard case .waiting(let attempt) = phase else { return }
        phase = .connecting(attempt: attempt)
        outputs.append(.openTransport)
        reportStatus(into: &outputs)
    }

    /// Ends everything: pending actions fail with ``ClientError/closed``; the transport is closed.
    package mutating func close(into outputs: inout [Output]) {
        guard phase != .closed else { return }
        phase = .closed
        for action in pending {
            outputs.append(.completed(seq: action.seq, .failure(.closed)))
        }
        pending.removeAll()
        for key in subscriptions.keys.sorted() where subscriptions[key]?.failure == nil {
            outputs.append(.subscriptionFailed(key: key, .closed))
        }
        subscriptions.removeAll()
        outputs.append(.closeTransport)
        reportStatus(into: &outputs)
    }
}
