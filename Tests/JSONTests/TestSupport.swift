import JSON
import Testing

/// Parses JSON text, failing the test (via `#require` at the call site) on error.
func json(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
    do {
        return try JSONValue(parsing: Array(text.utf8))
    } catch {
        Issue.record("parse failed: \(error) for \(text)", sourceLocation: sourceLocation)
        throw error
    }
}

/// The parse error for `text`, or nil when it parses.
func parseError(_ text: String, maxDepth: Int = 512) -> JSONParseError? {
    do {
        _ = try JSONValue(parsing: Array(text.utf8), maxDepth: maxDepth)
        return nil
    } catch {
        return error
    }
}

/// Compact serialization as a String.
func text(_ value: JSONValue, sortedKeys: Bool = false) -> String {
    String(decoding: value.serialized(sortedKeys: sortedKeys), as: UTF8.self)
}

/// A pointer from text expected to be valid; records an issue (and returns the root) when it is not.
func pointer(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONPointer {
    do {
        return try JSONPointer(text)
    } catch {
        Issue.record("invalid pointer \(text): \(error)", sourceLocation: sourceLocation)
        return .root
    }
}
