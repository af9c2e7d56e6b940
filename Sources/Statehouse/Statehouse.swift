/// The module a reducer author imports: ``ServableReducer`` and the JSON mapping of actions (Flux Standard Actions,
/// docs/protocol.md "Actions") and states (`Codable` through `JSONCoding`), over the reducer runtime of
/// `StatehouseCore`, which it re-exports. It links no networking: an app can share a reducer's `State` and `Action`
/// types with the server without linking libuv, llhttp or OpenSSL.
@_exported public import StatehouseCore
