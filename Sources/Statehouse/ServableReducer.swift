public import StatehouseCore

/// A reducer the server can host: its state and actions travel as JSON, and it has a default initial state.
///
/// Actions and events are plain `Codable` enums; the server maps Flux Standard Actions onto them (see
/// ``FluxStandardAction`` and docs/protocol.md). Register the type in a ``ReducerCatalog`` to name it in the
/// configuration.
///
/// An action's decoding must be a pure function of its JSON, as `Decodable` implies: a store decodes an action
/// without payload (`{"type":"increment"}`) once per type and reuses the value.
public protocol ServableReducer: Reducer where State: Codable, Action: Codable, Event: Encodable {
    /// Creates the reducer (reducers hold no state of their own; dependencies go here).
    init()
    /// The state a store starts from when its configuration gives none.
    static var initialState: State { get }
    /// The FSA `type` of every action, listed in `invalid_action` errors. Default: none listed.
    static var actionTypes: [String] { get }
}

extension ServableReducer {
    public static var actionTypes: [String] { [] }
}
