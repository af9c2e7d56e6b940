extension ClientConnection {
    /// Carries out the session's outputs, in order.
    func run(_ outputs: [ClientSession.Output]) {
        for output in outputs {
            switch output {
            case .openTransport: openTransport()
            case .write(let text): transport?.send(text: text)
            case .closeTransport:
                if let transport, transport.isOpen { transport.close() } else { transport?.abort() }
            case .scheduleRetry(let ms): scheduleRetry(ms: ms)
            case .status(let status): statusBoard.publish(status)
            case .state(let key, let epoch, let version, let state, let patch):
                sinks[key]?.deliver(epoch: epoch, version: version, state: state, patch: patch)
            case .event(let key, let event): sinks[key]?.deliver(event: event)
            case .subscriptionFailed(let key, let error): sinks.removeValue(forKey: key)?.end(error)
            case .connectionRefused(let error): for sink in sinks.values { sink.refused(error) }
            case .armAckTimer(let seq, let settleTimeoutMs): armAckTimer(seq: seq, settleTimeoutMs: settleTimeoutMs)
            case .completed(let seq, let result):
                ackDeadlines[seq] = nil
                completions.removeValue(forKey: seq)?(result)
            }
        }
    }
}
