/// What a ``Store`` writes to its logger about the actions it reduces and the states they make (OneWay's
/// `LoggingOptions`; GoodReactor has no counterpart). Empty (`[]`, the default) writes nothing of the kind: the store
/// then logs only effect errors, events of a foreign type and journal writes undone.
///
/// Given at ``Store/init(reducer:state:name:clock:logger:logging:executor:recovered:journal:)`` and changed with
/// ``Store/setLogging(_:)`` (or ``Store/debug(_:)``, OneWay's name). Unlike OneWay's, the lines are written in every
/// build (release too) and on every platform, through the store's `logger:` (standard error without one).
///
/// Lines, one per record (`NAME` is the store's `name:`; a description is `String(describing:)`, bounded by
/// ``maxDescriptionBytes`` and kept on one line):
/// ```
/// .actions   store NAME: action increment → version 4
///            store NAME: action increment → version 4 (state unchanged)
///            store NAME: action tick (from an effect) → version 5
///            store NAME: action tick (from an effect) dropped at version 5 (its effect was cancelled or the store reset)
///            store NAME: action increment dropped at version 5 (the store is stopped)
///            store NAME: reset → version 6
///            store NAME: reset keeping state → version 6 (state unchanged)
/// .state     store NAME: state at version 4: State(count: 4)
/// ```
/// `.actions` gives one line per action taken from the mailbox, reduced or dropped, with the version right after it
/// (and one per reset); `.state` one line per new version (after an action or a reset) with the new state. Written on
/// the store's actor, in reduce order, right after the action's state notification. A journaled store's lines are
/// written when the action is reduced: its batch may still be undone (that is logged too).
public struct StoreLogging: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// One line per action reduced or dropped (and per reset): its description, whether an effect produced it, and
    /// the version right after it.
    public static let actions = StoreLogging(rawValue: 1 << 0)
    /// One line per new version: the version and the new state's description.
    public static let state = StoreLogging(rawValue: 1 << 1)
    /// ``actions`` and ``state``.
    public static let all: StoreLogging = [.actions, .state]

    /// The most UTF-8 bytes of an action's or a state's description a line holds: 4,096. A longer one is cut at a
    /// Unicode scalar boundary and ends with `… (N bytes in all)`, so a huge state cannot flood the log.
    public static let maxDescriptionBytes = 4_096

    /// The names of the options as the server's configuration spells them (`"actions"`, `"state"`), in that order.
    public var names: [String] {
        var names: [String] = []
        if contains(.actions) { names.append("actions") }
        if contains(.state) { names.append("state") }
        return names
    }

    /// The option named `name` (`"actions"` or `"state"`); nil for any other word.
    public init?(name: String) {
        switch name {
        case "actions": self = .actions
        case "state": self = .state
        default: return nil
        }
    }

    /// `String(describing: value)` on one line (line breaks and other control characters escaped as `\n`, `\r`,
    /// `\t`, `\u{…}`) and at most ``maxDescriptionBytes`` UTF-8 bytes long before the `… (N bytes in all)` that marks
    /// a cut.
    static func describe<Value>(_ value: Value) -> String {
        let text = String(describing: value)
        let isControl = { (scalar: Unicode.Scalar) in scalar.properties.generalCategory == .control }
        if text.utf8.count <= maxDescriptionBytes && !text.unicodeScalars.contains(where: isControl) { return text }
        var out = ""
        var bytes = 0
        for scalar in text.unicodeScalars {
            let piece: String
            switch scalar {
            case "\n": piece = "\\n"
            case "\r": piece = "\\r"
            case "\t": piece = "\\t"
            case _ where isControl(scalar): piece = "\\u{\(String(scalar.value, radix: 16))}"
            default: piece = String(scalar)
            }
            if bytes + piece.utf8.count > maxDescriptionBytes {
                return out + "… (\(text.utf8.count) bytes in all)"
            }
            out += piece
            bytes += piece.utf8.count
        }
        return out
    }
}

/// What a line a ``Store`` writes to its logger is about, for a logger with levels (``Store/init(reducer:state:name:clock:lineLogger:logging:executor:recovered:journal:startsAtInit:)``;
/// the server writes records at `info` and problems at `warning`).
public enum StoreLogLineKind: Sendable {
    /// A line ``StoreLogging`` asked for: an action reduced or dropped, a reset, a new state.
    case record
    /// A line about something that went wrong: an effect error without `catch:`, an emitted event of a foreign type,
    /// journaled batches undone.
    case problem
}
