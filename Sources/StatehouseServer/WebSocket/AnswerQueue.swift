/// The answers (acks and errors) to one connection's `action` messages, sent in the order the messages arrived
/// (docs/protocol.md: acks in send order), whichever is ready first: each message takes a ticket on arrival, and an
/// answer ready before those of earlier tickets is held until they have gone. A `"wait":"settled"` ack therefore
/// never overtakes an earlier action's answer, and holds back the answers of the actions sent after it.
///
/// Bounded by its session: reading pauses while ``WebSocketSession/maxActionsInFlight`` messages await their answer
/// (``waiting``), so at most that many are held.
///
/// ## Thread safety
/// A value inside its loop-confined session.
struct AnswerQueue {
    /// The ticket the next `action` message takes.
    private(set) var nextTicket: UInt64 = 0
    /// The ticket whose answer goes next.
    private(set) var nextToSend: UInt64 = 0
    /// Answers ready before their turn (JSON messages), by ticket.
    private var held: [UInt64: [UInt8]] = [:]

    /// How many messages await their answer (ticket taken, answer not sent).
    var waiting: Int { Int(nextTicket - nextToSend) }

    /// A ticket for a message that will be answered.
    mutating func take() -> UInt64 {
        defer { nextTicket += 1 }
        return nextTicket
    }

    /// The answer of `ticket` is ready: `send` gets it now if its turn has come, then every held answer whose turn
    /// follows; otherwise it is held. An answer of a ticket already passed (``flush(_:)``) is dropped.
    mutating func ready(_ ticket: UInt64, _ answer: [UInt8], send: ([UInt8]) -> Void) {
        guard ticket == nextToSend else {
            if ticket > nextToSend { held[ticket] = answer }
            return
        }
        send(answer)
        nextToSend += 1
        while !held.isEmpty, let next = held.removeValue(forKey: nextToSend) {
            send(next)
            nextToSend += 1
        }
    }

    /// The connection is closing (server shutdown): every held answer goes now, in ticket order, past the tickets not
    /// answered yet (their answers, should they come, are dropped).
    mutating func flush(_ send: ([UInt8]) -> Void) {
        for (_, answer) in held.sorted(by: { $0.key < $1.key }) { send(answer) }
        held = [:]
        nextToSend = nextTicket
    }
}
