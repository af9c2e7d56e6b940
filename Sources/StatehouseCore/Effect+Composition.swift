extension Effect {
    /// Runs `effects` concurrently; the merged effect ends when all of them have ended.
    ///
    /// Children are started in array order; actions they produce interleave in whatever order they
    /// reach the mailbox. An empty array is ``none``; one element is that element.
    ///
    /// - Parameter effects: The effects to run together.
    public static func merge(_ effects: [Effect]) -> Effect {
        let children = effects.filter { !$0.isNone }
        switch children.count {
        case 0: return .none
        case 1: return children[0]
        default: return Effect(.merge(children))
        }
    }

    /// Runs `effects` concurrently; see `merge(_:)`.
    ///
    /// - Parameter effects: The effects to run together.
    public static func merge(_ effects: Effect...) -> Effect {
        merge(effects)
    }

    /// Runs `effects` strictly one after another.
    ///
    /// Each child runs to completion, including everything it started (for example all children of a
    /// nested `merge(_:)`) and the reduction of every action it sent, before the next
    /// child starts. A cancelled child (``cancel(_:)``) counts as complete and the next one starts;
    /// cancelling a run that contains the whole concat stops the remaining children too.
    /// An empty array is ``none``; one element is that element.
    ///
    /// - Parameter effects: The effects to run in order.
    public static func concat(_ effects: [Effect]) -> Effect {
        let children = effects.filter { !$0.isNone }
        switch children.count {
        case 0: return .none
        case 1: return children[0]
        default: return Effect(.concat(children))
        }
    }

    /// Runs `effects` strictly one after another; see `concat(_:)`.
    ///
    /// - Parameter effects: The effects to run in order.
    public static func concat(_ effects: Effect...) -> Effect {
        concat(effects)
    }

    /// Whether this effect does nothing (used to simplify compositions).
    var isNone: Bool {
        if case .none = operation { return true }
        return false
    }
}
