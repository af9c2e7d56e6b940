import HTTP1

/// Long polls (`min_version` reads, `wait=settled` actions): a request answered later is answered at once when the
/// wait could never end well (shutdown, the client gone).
extension HTTPSession {
    /// Keeps `cut` for answering the long poll now being waited for (the request being answered), or calls it at once when the
    /// wait could never end well: the server is shutting down (nobody will call ``goAway()`` again) or the client has
    /// closed its side. Returns whether the wait goes on.
    func holdLongPoll(_ cut: @escaping (LongPollCut) -> Void) -> Bool {
        context.loop.assertInLoop()
        if context.isShuttingDown || rules.isInputClosed {
            cut(context.isShuttingDown ? .shutdown : .peerClosed)
            return false
        }
        cutShort = cut
        return true
    }

    /// Answers the waiting long poll, if any, at once (``LongPollCut``).
    func cutLongPoll(_ why: LongPollCut) {
        context.loop.assertInLoop()
        guard let cut = cutShort else { return }
        cutShort = nil
        cut(why)
    }

    /// The answer of a long poll cut short, with the state now (`what` says what it waited for): 503 `shutting_down`
    /// with `Retry-After`, or 408 `client_closed`.
    static func cutShort(_ why: LongPollCut, _ store: HostedStore, _ what: String) -> HTTPResponse {
        switch why {
        case .shutdown: errorWithState(.shuttingDown(what), store)
        case .peerClosed: errorWithState(.clientClosed(what), store)
        }
    }
}
