import Foundation
import JSON
import StatehouseClient

/// `statehouse send STORE ACTION|- [--id KEY] [--wait settled]`: `POST /stores/STORE/actions`.
func runSend(_ arguments: [String], terminal: Terminal) -> Never {
    let invocation = ClientInvocation.parse(arguments, command: "send", options: ["--id", "--wait"])
    let positionals = invocation.positionals(2, command: "send", what: "a store name and an action (or - for stdin)")
    let store = positionals[0]
    let action = positionals[1] == "-"
        ? Array(FileHandle.standardInput.readDataToEndOfFile()) : Array(positionals[1].utf8)
    var path = "/stores/\(HTTPExchange.percentEncoded(store))/actions"
    if let wait = invocation.values["--wait"] {
        guard wait == "settled" else { fail("--wait takes settled (the only thing to wait for)", .usage) }
        path += "?wait=settled"
    }
    var fields: [(name: String, value: String)] = []
    if let key = invocation.values["--id"] { fields.append((name: "Idempotency-Key", value: key)) }
    let (response, json) = ClientTransport.exchange(invocation, method: "POST", path: path, body: action, fields: fields)
    guard terminal.isTTY else {
        terminal.document(json)
        exit(ClientExit.ok.rawValue)
    }
    let answer = json.objectValue
    var header = terminal.header("\(answer?["store"]?.stringValue ?? store) v\(answer?["version"].map(PrettyJSON.compact) ?? "?")")
    if response.fields.contains(where: { $0.name.lowercased() == "idempotent-replayed" && $0.value == "true" }) {
        header += terminal.dim(" (replayed: this key's first outcome)")
    }
    terminal.write(header + "\n")
    terminal.document(answer?["state"] ?? .null)
    exit(ClientExit.ok.rawValue)
}
