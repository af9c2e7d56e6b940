import DemoReducers
import Foundation
import StatehouseServer

// statehouse serve [--config PATH] [--host H] [--port P] | statehouse --help
// Exit codes: 0 after a clean shutdown, 1 when the address cannot be bound, 2 for bad usage or configuration.

let usage = """
    Usage: statehouse serve [--config PATH] [--host HOST] [--port PORT]
           statehouse --help | --version

    Serves the stores declared in the configuration file over HTTP and WebSocket.
      --config PATH   configuration file (default: Config/statehouse.json)
      --host HOST     listen address (IPv4/IPv6 literal or localhost), overriding the file's listen.host
      --port PORT     listen port, overriding listen.port; 0 picks a free port
    Once listening it prints one line: statehouse listening on http://HOST:PORT
    SIGINT or SIGTERM shuts it down gracefully (WebSockets get close code 1001) and it exits 0.
    Set STATEHOUSE_LOG=debug|info|warning|error for more or less logging (default info).

    """

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("statehouse: \(message)\n".utf8))
    exit(code)
}

let version = "0.1.0"

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--version"] {
    print("statehouse \(version)")
    exit(0)
}
if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") || arguments == ["help"] {
    print(usage, terminator: "")
    exit(arguments.isEmpty ? 2 : 0)
}
guard arguments.removeFirst() == "serve" else { fail("unknown command; see statehouse --help", code: 2) }

var configPath = "Config/statehouse.json"
var host: String?
var port: Int?
while !arguments.isEmpty {
    let flag = arguments.removeFirst()
    guard ["--config", "--host", "--port"].contains(flag) else { fail("unknown option \(flag); see statehouse --help", code: 2) }
    guard let value = arguments.first else { fail("\(flag) needs a value; see statehouse --help", code: 2) }
    arguments.removeFirst()
    switch flag {
    case "--config": configPath = value
    case "--host":
        guard let address = ServerConfiguration.bindAddress(for: value) else {
            fail("--host must be an IPv4 or IPv6 address or localhost (host names are not resolved)", code: 2)
        }
        host = address
    case "--port":
        guard let number = Int(value), (0...65535).contains(number) else { fail("--port must be 0 to 65535", code: 2) }
        port = number
    default: break
    }
}

var configuration: ServerConfiguration
do {
    configuration = try ConfigurationLoader.load(path: configPath)
} catch {
    fail(error.description, code: 2)
}
if let host { configuration.host = host }
if let port { configuration.port = port }

let server: Server
do {
    server = try Server(configuration: configuration, catalog: .demo, configurationPath: configPath)
} catch let error as ConfigurationError {
    fail(error.description, code: 2)
} catch {
    fail("cannot start: \(error)", code: 1)
}

let boundPort: Int
do {
    boundPort = try server.start()
} catch {
    fail("cannot listen on \(configuration.host):\(configuration.port): \(error)", code: 1)
}
server.handleTerminationSignals()
let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
FileHandle.standardOutput.write(Data("statehouse listening on http://\(shownHost):\(boundPort)\n".utf8))
server.waitUntilStopped()
exit(0)
