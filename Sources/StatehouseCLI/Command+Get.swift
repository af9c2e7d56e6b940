import Foundation
import JSON
import StatehouseClient

/// `statehouse get STORE [--path POINTER]`: `GET /stores/STORE`; the pointer is resolved here (the read route takes no
/// `path`), the answer then carries `"path"` as stream messages of a projection do.
func runGet(_ arguments: [String], terminal: Terminal) -> Never {
    let invocation = ClientInvocation.parse(arguments, command: "get", options: ["--path"])
    let store = invocation.positionals(1, command: "get", what: "one store name")[0]
    var pointer: JSONPointer?
    if let text = invocation.values["--path"] {
        do {
            pointer = try JSONPointer(text)
        } catch {
            fail("--path \(text) is not a JSON Pointer (RFC 6901): write it as /key/0/key, ~1 for / and ~0 for ~", .usage)
        }
    }
    let (_, json) = ClientTransport.exchange(invocation, method: "GET", path: "/stores/\(HTTPExchange.percentEncoded(store))")
    guard var answer = json.objectValue else {
        fail("the answer is not a JSON object: \(PrettyJSON.compact(json))", .unreachable)
    }
    let state = answer["state"] ?? .null
    if let pointer, let text = invocation.values["--path"] {
        _ = answer.removeValue(forKey: "state")
        answer["path"] = .string(text)
        answer["state"] = state[pointer: pointer] ?? .null
    }
    if terminal.isTTY {
        var header = "\(answer["store"]?.stringValue ?? store) v\(answer["version"].map(PrettyJSON.compact) ?? "?")"
        if let path = answer["path"]?.stringValue { header += " \(path)" }
        terminal.write(terminal.header(header) + "\n")
        terminal.document(answer["state"] ?? .null)
    } else {
        terminal.document(.object(answer))
    }
    exit(ClientExit.ok.rawValue)
}
