// Shared by the fuzz targets that link StatehouseServer: compiled into each by scripts/fuzz (never by `swift build`).

@testable import JSON
@testable import StatehouseServer

/// Checks that `error` is an answer the API documents: a code of `APIError.allCodes` (and of `codes` when given), a
/// status of `statuses`, a message that is one non-empty line, and a body that parses as
/// `{"error":{"code","message"}}` with the same strings.
func fuzzCheckAPIError(_ error: APIError, statuses: Set<Int>, codes: Set<String>? = nil) {
    fuzzCheck(statuses.contains(error.status), "status \(error.status) for \(error)")
    fuzzCheck(APIError.allCodes.contains(error.code), "undocumented code \(error.code)")
    if let codes { fuzzCheck(codes.contains(error.code), "code \(error.code) for \(error)") }
    fuzzCheck(!error.message.isEmpty && !error.message.contains("\n") && !error.message.contains("\r"),
        "the message is empty or spans lines: \(error.message.debugDescription)")
    guard let body = try? JSONValue(parsing: error.body), case .object(let inner)? = body.objectValue?["error"],
        inner["code"]?.stringValue == error.code, inner["message"]?.stringValue == error.message
    else {
        return fuzzCheck(false, "the error body does not read back: \(String(decoding: error.body, as: UTF8.self))")
    }
}
