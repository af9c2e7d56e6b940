/// One JSON Patch operation (RFC 6902 §4). Paths are JSON Pointers (RFC 6901).
public enum JSONPatchOperation: Sendable, Hashable {
    /// §4.1: insert into an array at an index (0…count, or `-` for the end), set an object member (replacing an
    /// existing one), or with the root path replace the whole document. The parent must exist.
    case add(path: JSONPointer, value: JSONValue)
    /// §4.2: remove the existing value at `path`; later array elements shift down.
    case remove(path: JSONPointer)
    /// §4.3: replace the existing value at `path` (the root path replaces the document).
    case replace(path: JSONPointer, value: JSONValue)
    /// §4.4: remove the value at `from` and add it at `path`; `path` may not lie inside `from`.
    case move(from: JSONPointer, path: JSONPointer)
    /// §4.5: add a copy of the value at `from` at `path`.
    case copy(from: JSONPointer, path: JSONPointer)
    /// §4.6: fail unless the value at `path` equals `value` (numbers by value, objects ignoring member order).
    case test(path: JSONPointer, value: JSONValue)

    /// The `op` member name: `add`, `remove`, `replace`, `move`, `copy` or `test`.
    public var name: String {
        switch self {
        case .add: "add"
        case .remove: "remove"
        case .replace: "replace"
        case .move: "move"
        case .copy: "copy"
        case .test: "test"
        }
    }

    /// The target location (`path` member).
    public var path: JSONPointer {
        switch self {
        case .add(let path, _), .remove(let path), .replace(let path, _), .test(let path, _): path
        case .move(_, let path), .copy(_, let path): path
        }
    }
}
