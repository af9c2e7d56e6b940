import DemoReducers
import Foundation
import StatehouseServer
import UVLoop

// statehouse serve [--config PATH] [--host H] [--port P] [--node N] | replay … | backup … | stores | get | send | watch | --help
// Exit codes: 0 after a clean shutdown, 1 when the address cannot be bound (replay: a snapshot that differs), 2 for
// bad usage or configuration (or a database that cannot be used). The client commands: see `ClientExit`.

let usage = """
    Usage: statehouse serve [--config PATH] [--host HOST] [--port PORT] [--node NAME]
           statehouse replay [--config PATH] --store NAME [--to VERSION] [--verify]
           statehouse backup [--config PATH] DEST
           statehouse stores [--url URL] [--token TOKEN]
           statehouse get STORE [--path POINTER] [--url URL] [--token TOKEN]
           statehouse send STORE ACTION|- [--id KEY] [--wait settled] [--url URL] [--token TOKEN]
           statehouse watch STORE [--path POINTER] [--format state|patch] [--since VERSION --epoch EPOCH]
                            [--url URL] [--token TOKEN]
           statehouse COMMAND --help | statehouse --help | --version

    Serves the stores declared in the configuration file over HTTP and WebSocket.
      --config PATH   configuration file (default: Config/statehouse.json)
      --host HOST     listen address (IPv4/IPv6 literal or localhost), overriding the file's listen.host
      --port PORT     listen port, overriding listen.port; 0 picks a free port
      --node NAME     this node's name in a cluster, overriding storage.node (docs/cluster.md)
    Once listening it prints one line: statehouse listening on http://HOST:PORT
    Signals: SIGINT or SIGTERM shuts it down gracefully (WebSockets get close code 1001) and it exits 0.
    SIGHUP reads the --config file again and applies auth, cors, log.level, limits (but maxConnections),
    timeouts and streams (but historySize); it logs one line per change, "needs a restart" for the rest
    (listen, stores, storage), and keeps the running configuration when the file is invalid.
    Set STATEHOUSE_LOG=debug|info|warning|error for more or less logging (default info; the file's log.level,
    when given, wins), STATEHOUSE_LOG_FORMAT=text|json for plain lines (default) or one JSON object per line.

    replay re-reduces a durable store's journal from its oldest kept snapshot (to VERSION, default the newest) and
    prints {"store":…,"version":…,"state":…}; --verify also compares the state at every later snapshot (exit 1 at
    the first that differs: the reducer is not deterministic, or reads old actions differently).
    backup copies the database named by the configuration's storage.path to DEST (SQLite online backup; safe while
    the server runs).
    Both open the database read-only. See docs/durability.md.

    stores, get, send and watch talk to a running server (default http://127.0.0.1:8080, or $STATEHOUSE_URL; --url
    to choose, http:// only; --token or $STATEHOUSE_TOKEN for a bearer token): list the stores, print a state, send
    an action, stream the new versions. Readable on a terminal, one compact JSON document per line when piped.
    Their exit status: 0 done, 1 the server refused (its message is printed), 2 bad usage, 3 the server cannot be
    reached or the stream ended. See statehouse COMMAND --help and docs/operations.md (Command line).

    """

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("statehouse: \(message.forTerminal)\n".utf8))
    exit(code)
}

let version = "0.1.0"

/// `replay` and `backup`: never returns.
func runStorageTool(_ command: String, _ arguments: [String]) -> Never {
    var configPath = "Config/statehouse.json"
    var store: String?
    var target: UInt64?
    var verify = false
    var destination: String?
    CommandLineOptions.scan(
        arguments, options: command == "replay" ? ["--config", "--store", "--to"] : ["--config"],
        flags: command == "replay" ? ["--verify"] : [], context: " for \(command)", help: "statehouse --help",
        positional: { argument in
            guard command == "backup", destination == nil else {
                fail("unknown option \(argument) for \(command); see statehouse --help", code: 2)
            }
            destination = argument
        },
        take: { option, value in
            switch (option, value) {
            case ("--config", let value?): configPath = value
            case ("--store", let value?): store = value
            case ("--to", let value?):
                guard let number = UInt64(value) else { fail("--to must be a version (an unsigned integer)", code: 2) }
                target = number
            default: verify = true
            }
        })
    let configuration: ServerConfiguration
    do {
        configuration = try ConfigurationLoader.load(path: configPath)
    } catch {
        fail(error.description, code: 2)
    }
    do {
        if command == "backup" {
            guard let destination else { fail("backup needs a destination file; see statehouse --help", code: 2) }
            try StorageTools.backup(configuration: configuration, to: destination)
            FileHandle.standardError.write(Data("statehouse: backed up \(configuration.storage?.path ?? "") to \(destination)\n".utf8))
            exit(0)
        }
        guard let store else { fail("replay needs --store NAME; see statehouse --help", code: 2) }
        let report = try StorageTools.replay(configuration: configuration, catalog: demoCatalog(), store: store, to: target, verify: verify)
        var line = Array("{\"store\":".utf8) + Array(String(reflecting: report.store).utf8)
        line += Array(",\"version\":\(report.version),\"state\":".utf8) + report.state + Array("}\n".utf8)
        FileHandle.standardOutput.write(Data(line))
        var summary = "statehouse: replayed \(report.actions) action(s) of \(store) from the snapshot at version \(report.fromVersion) to \(report.version)"
        if verify {
            if let mismatch = report.mismatch {
                FileHandle.standardError.write(Data((summary + "; the state at version \(mismatch) differs from its snapshot: the reducer is not deterministic, or reads old actions differently\n").utf8))
                exit(1)
            }
            summary += "; \(report.verified) snapshot(s) verified, all match"
        }
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        exit(0)
    } catch {
        fail(error.description, code: 2)
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--version"] {
    print("statehouse \(version)")
    exit(0)
}
/// The client commands and their help texts (Command+*.swift).
let clientCommands: [String: (run: ([String], Terminal) -> Never, help: String)] = [
    "stores": (runStores, ClientUsage.stores), "get": (runGet, ClientUsage.get),
    "send": (runSend, ClientUsage.send), "watch": (runWatch, ClientUsage.watch),
]
if let name = arguments.first, let client = clientCommands[name] {
    let rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
        print(client.help, terminator: "")
        exit(0)
    }
    client.run(rest, Terminal.current())
}
if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") || arguments == ["help"] {
    print(usage, terminator: "")
    exit(arguments.isEmpty ? 2 : 0)
}
let command = arguments.removeFirst()
guard ["serve", "replay", "backup"].contains(command) else { fail("unknown command; see statehouse --help", code: 2) }
if command != "serve" {
    runStorageTool(command, arguments)
}

var configPath = "Config/statehouse.json"
var host: String?
var port: Int?
var node: String?
CommandLineOptions.scan(
    arguments, options: ["--config", "--host", "--port", "--node"], context: "", help: "statehouse --help",
    positional: { fail("unknown option \($0); see statehouse --help", code: 2) },
    take: { option, value in
        let value = value ?? ""
        switch option {
        case "--config": configPath = value
        case "--host":
            guard let address = ServerConfiguration.bindAddress(for: value) else {
                fail("--host must be an IPv4 or IPv6 address or localhost (host names are not resolved)", code: 2)
            }
            host = address
        case "--node":
            guard ClusterConfiguration.isNodeName(value) else {
                fail("--node takes 1 to 64 letters, digits, '-', '_' or '.'", code: 2)
            }
            node = value
        default:
            guard let number = Int(value), (0...65535).contains(number) else { fail("--port must be 0 to 65535", code: 2) }
            port = number
        }
    })

/// STATEHOUSE_LOG: the level of the lines on standard error (default info; a bad value is warned about, then info);
/// STATEHOUSE_LOG_FORMAT: text or json (default text; anything else exits 2).
let logger: Logger
do {
    logger = try Logger.fromEnvironment()
} catch {
    fail(error.description, code: 2)
}

var configuration: ServerConfiguration
do {
    configuration = try ConfigurationLoader.load(path: configPath)
} catch {
    fail(error.description, code: 2)
}
/// The command line's overrides, applied to the file at start and at every reload (SIGHUP).
let overrides: @Sendable (inout ServerConfiguration) -> Void = { [host, port, node] configuration in
    if let host { configuration.host = host }
    if let port { configuration.port = port }
    if let node { configuration.cluster?.node = node }
}
overrides(&configuration)


let server: Server
do {
    server = try Server(
        configuration: configuration, catalog: demoCatalog(), logger: logger,
        configurationPath: configPath)
} catch let error as ConfigurationError {
    fail(error.description, code: 2)
} catch {
    fail("cannot start: \(error)", code: 1)
}

let boundPort: Int
do {
    boundPort = try server.start()
} catch {
    let advice = (error as? UVError)?.name == "EADDRINUSE"
        ? "; stop what holds the port, or pick another with --port (0: any free port) or listen.port" : ""
    fail("cannot listen on \(configuration.host):\(configuration.port): \(error)\(advice)", code: 1)
}
server.handleTerminationSignals()
server.handleReloadSignal(configurationPath: configPath, adjusting: overrides)
let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
FileHandle.standardOutput.write(Data("statehouse listening on http://\(shownHost):\(boundPort)\n".utf8))
server.waitUntilStopped()
exit(0)

/// The demo reducers, each registered with its concrete type, so the release build compiles each store's code for its
/// reducer (see `ReducerCatalog.registering(_:as:)`).
func demoCatalog() -> ReducerCatalog {
    ReducerCatalog().registering(Counter.self).registering(TodoList.self).registering(Search.self).registering(Ticker.self)
}
