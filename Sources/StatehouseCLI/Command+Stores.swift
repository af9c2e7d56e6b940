import Foundation
import JSON

/// `statehouse stores`: `GET /stores`, one line per store.
func runStores(_ arguments: [String], terminal: Terminal) -> Never {
    let invocation = ClientInvocation.parse(arguments, command: "stores", options: [])
    _ = invocation.positionals(0, command: "stores", what: "no arguments")
    let (_, json) = ClientTransport.exchange(invocation, method: "GET", path: "/stores")
    let stores = json.objectValue?["stores"]?.arrayValue ?? []
    guard terminal.isTTY else {
        for store in stores { terminal.line(store.serialized()) }
        exit(ClientExit.ok.rawValue)
    }
    guard !stores.isEmpty else {
        terminal.write("(no stores)\n")
        exit(ClientExit.ok.rawValue)
    }
    let rows = stores.map { store -> [String] in
        let object = store.objectValue
        return [
            (object?["name"]?.stringValue ?? "?").forTerminal, (object?["reducer"]?.stringValue ?? "?").forTerminal,
            object?["version"].map(PrettyJSON.compact) ?? "?",
        ]
    }
    let widths = (0..<3).map { column in max(["NAME", "REDUCER", "VERSION"][column].count, rows.map { $0[column].count }.max() ?? 0) }
    func format(_ row: [String]) -> String {
        row.enumerated().map { $0 == 2 ? $1 : $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            .joined(separator: "  ")
    }
    terminal.write(terminal.header(format(["NAME", "REDUCER", "VERSION"])) + "\n")
    for row in rows { terminal.write(format(row) + "\n") }
    exit(ClientExit.ok.rawValue)
}
