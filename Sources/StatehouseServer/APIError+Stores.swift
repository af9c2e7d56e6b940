import HTTP1

/// Errors of store administration and of actions on a store.
extension APIError {
    static func storeNotFound(_ name: String) -> APIError {
        APIError(
            status: 404, .storeNotFound,
            message: "No store is named \(JSONText.quoted(name)); GET /stores lists the stores.")
    }

    static func invalidStoreName(_ name: String) -> APIError {
        APIError(
            status: 400, .invalidStoreName,
            message: "\(JSONText.quoted(name)) is not a valid store name; use 1 to 64 of A-Z a-z 0-9 . _ - (not . or ..)")
    }

    static let invalidStore = APIError(
        status: 400, .invalidStore, message: "Send {\"reducer\":\"<type>\",\"state\":{…}} (state optional) to create a store.")

    static func unknownReducer(_ reducer: String, known: [String]) -> APIError {
        APIError(
            status: 400, .unknownReducer,
            message: "No reducer is named \(JSONText.quoted(reducer)); known: \(known.joined(separator: ", ")).")
    }

    static func invalidState(_ reducer: String, _ detail: String) -> APIError {
        APIError(status: 400, .invalidState, message: "The state is not a valid \(reducer) state (\(detail)).")
    }

    static func internalError(_ detail: String) -> APIError {
        APIError(status: 500, .internalError, message: detail)
    }

    /// 409: the store exists with another reducer.
    static func storeExists(_ name: String, reducer: String) -> APIError {
        APIError(
            status: 409, .storeExists,
            message: "\(JSONText.quoted(name)) exists with reducer \(reducer); delete it first or pick another name.")
    }

    /// 409: another request is creating or deleting a store of that name.
    static func storeNameBusy(_ name: String) -> APIError {
        APIError(
            status: 409, .storeExists,
            message: "A store named \(JSONText.quoted(name)) is being created or deleted by another request; retry in a moment.")
    }

    /// 409: the database holds data of a store of that name that this server does not serve.
    static func storeNotServed(_ name: String) -> APIError {
        APIError(
            status: 409, .storeExists,
            message: "The database holds data of a store \(JSONText.quoted(name)) this server does not serve (\"durable\": false, or no longer configured); pick another name.")
    }

    /// 507 (RFC 4918 §11.5): the store limit is reached.
    static func tooManyStores(_ limit: Int) -> APIError {
        APIError(
            status: 507, .tooManyStores,
            message: "The server hosts its limit of \(limit) stores (limits.maxStores); delete one or raise the limit.")
    }

    /// 400: an idempotency key that is empty or longer than `maxBytes` (`field`: `Idempotency-Key` or `id`).
    static func invalidIdempotencyKey(field: String, maxBytes: Int) -> APIError {
        APIError(
            status: 400, .invalidIdempotencyKey,
            message: "The \(field) must be 1 to \(maxBytes) printable ASCII characters (space to ~); send a unique string per action, e.g. a UUID.")
    }

    /// 422: the key (`field`: `Idempotency-Key` or `id`) was used for a different action.
    static func idempotencyKeyReused(field: String) -> APIError {
        APIError(
            status: 422, .idempotencyKeyReused,
            message: "This \(field) was used for a different action; use a new key for a new action.")
    }
}
