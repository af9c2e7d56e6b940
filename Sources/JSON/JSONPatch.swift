/// RFC 6902 JSON Patch over `JSONValue`: compute (`diff`), apply (`apply`) and encode/decode (`serialize`, `parse`).
public enum JSONPatch {
    /// Applies `ops` in order to a copy of `value` (RFC 6902 §3–§5) and returns the result.
    ///
    /// All six operations are supported, including `-` as the last token of an `add` path (append). Atomic: on any
    /// failure the error is thrown and nothing is returned (the input is a value and is never changed).
    /// Containers along each path are edited in place, so a patch costs about O(depth + array shift) per operation.
    /// - Throws: `JSONPatchError` naming the failing operation's index, the pointer and the reason.
    public static func apply(_ ops: [JSONPatchOperation], to value: JSONValue) throws(JSONPatchError) -> JSONValue {
        var document = value
        for (operationIndex, operation) in ops.enumerated() {
            do throws(JSONPatchError) {
                try apply(operation, to: &document)
            } catch var error {
                error.operationIndex = operationIndex
                throw error
            }
        }
        return document
    }

    private static func apply(_ operation: JSONPatchOperation, to document: inout JSONValue) throws(JSONPatchError) {
        switch operation {
        case .add(let path, let value):
            try at(path) { () throws(JSONPatchError) in try document.add(value, at: path) }
        case .remove(let path):
            try at(path) { () throws(JSONPatchError) in _ = try document.remove(at: path) }
        case .replace(let path, let value):
            try at(path) { () throws(JSONPatchError) in
                try document.modifyValue(at: path.tokens[...]) { (target) throws(JSONPatchError) in target = value }
            }
        case .move(let from, let path):
            if from == path {
                guard document[pointer: from] != nil else { throw failure(from, .pathNotFound) }
                return
            }
            guard !path.hasPrefix(from) else { throw failure(path, .moveIntoDescendant) }
            var value = JSONValue.null
            try at(from) { () throws(JSONPatchError) in value = try document.remove(at: from) }
            try at(path) { () throws(JSONPatchError) in try document.add(value, at: path) }
        case .copy(let from, let path):
            guard let value = document[pointer: from] else { throw failure(from, .pathNotFound) }
            try at(path) { () throws(JSONPatchError) in try document.add(value, at: path) }
        case .test(let path, let value):
            guard let actual = document[pointer: path] else { throw failure(path, .pathNotFound) }
            guard actual == value else { throw failure(path, .testFailed) }
        }
    }

    /// Runs `body`, reporting any failure against the whole `pointer` (inner code only knows the remaining tokens).
    private static func at(_ pointer: JSONPointer, _ body: () throws(JSONPatchError) -> Void) throws(JSONPatchError) {
        do throws(JSONPatchError) {
            try body()
        } catch var error {
            error.pointer = pointer.description
            throw error
        }
    }

    private static func failure(_ pointer: JSONPointer, _ reason: JSONPatchError.Reason) -> JSONPatchError {
        JSONPatchError(operationIndex: 0, pointer: pointer.description, reason: reason)
    }
}
