import JSON
import StatehouseClient
import UVLoop

/// `statehouse watch STORE …`: a WebSocket on `/stores/STORE/ws`, each message printed as it comes; no reconnect (the
/// last line says how to resume).
func runWatch(_ arguments: [String], terminal: Terminal) -> Never {
    let invocation = ClientInvocation.parse(
        arguments, command: "watch", options: ["--path", "--format", "--since", "--epoch"])
    let store = invocation.positionals(1, command: "watch", what: "one store name")[0]
    var query: [String] = []
    if let format = invocation.values["--format"] {
        guard format == "state" || format == "patch" else { fail("--format takes state or patch", .usage) }
        query.append("format=\(format)")
    }
    if let path = invocation.values["--path"] {
        guard (try? JSONPointer(path)) != nil else {
            fail("--path \(path) is not a JSON Pointer (RFC 6901): write it as /key/0/key, ~1 for / and ~0 for ~", .usage)
        }
        query.append("path=\(HTTPExchange.percentEncoded(path, keeping: [UInt8(ascii: "/")]))")
    }
    switch (invocation.values["--since"], invocation.values["--epoch"]) {
    case (nil, nil):
        break
    case (let since?, let epoch?):
        guard UInt64(since) != nil else { fail("--since takes a version (an unsigned integer)", .usage) }
        query.append("epoch=\(HTTPExchange.percentEncoded(epoch))&since=\(since)")
    default:
        fail("--since and --epoch go together: a version is only meaningful within its epoch", .usage)
    }
    let path = "/stores/\(HTTPExchange.percentEncoded(store))/ws" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))

    let loop = ClientTransport.startLoop()
    let watcher = StreamPrinter(store: store, terminal: terminal)
    let ended = ResultBox<WebSocketClient.Ending>()
    loop.execute {
        let client = WebSocketClient(
            loop: loop, endpoint: invocation.endpoint, path: path, requestFields: invocation.authorizationFields)
        client.onText = { watcher.print($0) }
        client.onEnd = { ended.put($0) }
        client.start()
    }
    let ending = ended.take()
    watcher.exit(after: ending)
}

/// Prints a watched store's messages and remembers where the stream was, for the resume hint.
///
/// ## Thread safety
/// Loop-confined while the stream runs (``print(_:)`` on the loop thread); ``exit(after:)`` reads it on the main
/// thread after the ending was handed over (a semaphore orders it).
final class StreamPrinter: @unchecked Sendable {
    private let store: String
    private let terminal: Terminal
    private var epoch: String?
    private var version: String?
    private var deleted = false

    init(store: String, terminal: Terminal) {
        self.store = store
        self.terminal = terminal
    }

    /// One text message: a line when piped; a header and pretty JSON on a terminal.
    func print(_ text: [UInt8]) {
        guard let message = try? JSONValue(parsing: text), let object = message.objectValue else {
            return terminal.line(text)
        }
        let type = object["type"]?.stringValue ?? ""
        if let epoch = object["epoch"]?.stringValue { self.epoch = epoch }
        if let version = object["version"], type == "state" || type == "patch" { self.version = PrettyJSON.compact(version) }
        if type == "deleted" { deleted = true }
        guard terminal.isTTY else { return terminal.line(message.serialized()) }
        let name = object["store"]?.stringValue ?? store
        switch type {
        case "state":
            var header = terminal.header("\(name) v\(version ?? "?")")
            if let path = object["path"]?.stringValue { header += " \(path)" }
            if object["resumed"]?.boolValue == false { header += terminal.dim(" (not resumed: the full state)") }
            terminal.write(header + "\n")
            terminal.document(object["state"] ?? .null)
        case "patch":
            let base = object["base"].map(PrettyJSON.compact) ?? "?"
            terminal.write(terminal.header("\(name) v\(version ?? "?")") + terminal.dim(" (patch from v\(base))") + "\n")
            for op in object["ops"]?.arrayValue ?? [] {
                let fields = op.objectValue
                var line = "  \(fields?["op"]?.stringValue ?? "?") \(fields?["path"]?.stringValue ?? "")"
                if let from = fields?["from"]?.stringValue { line += " from \(from)" }
                if let value = fields?["value"] { line += " " + PrettyJSON.compact(value) }
                terminal.write(line + "\n")
            }
        case "event":
            terminal.write(terminal.header("\(name) event") + "\n")
            terminal.document(object["event"] ?? .null)
        case "deleted":
            terminal.write(terminal.header("\(name) deleted") + "\n")
        default:
            terminal.document(message)
        }
    }

    /// Ends the process for the stream's `ending`: 0 after `deleted`, 1 for a refused handshake (the server's
    /// message), 3 otherwise with the resume options on standard error.
    func exit(after ending: WebSocketClient.Ending) -> Never {
        if case .refused(let status, let body) = ending { ClientTransport.refused(status: status, body: body) }
        if deleted { fail("\(store) was deleted; the stream ended", .ok) }
        var reason: String
        switch ending {
        case .refused: reason = ""
        case .closed(let code, let closeReason):
            reason = "the server closed the stream (close code \(code.map(String.init) ?? "none")"
                + (code == 1001 ? ": it is shutting down" : code == 4008 ? ": this client fell behind" : "")
                + (closeReason.isEmpty ? ")" : "; \(closeReason))")
        case .failed(let text):
            guard version != nil else { fail(text, .unreachable) }
            reason = "the stream ended: \(text)"
        }
        if let epoch, let version {
            reason += "; resume with --epoch \(epoch) --since \(version)"
        }
        fail(reason, .unreachable)
    }
}
