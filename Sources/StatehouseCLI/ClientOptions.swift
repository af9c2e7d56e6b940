import Foundation
import StatehouseClient

/// What a client command was given: its positional arguments, its options, and the server to talk to.
struct ClientInvocation {
    /// The arguments that are not options, in order (`-` included).
    var positionals: [String] = []
    /// Option values by name (`--path` → `/count`), the last one given winning.
    var values: [String: String] = [:]
    /// The server: `--url`, else `$STATEHOUSE_URL`, else `http://127.0.0.1:8080`.
    var endpoint = ServerEndpoint(host: "127.0.0.1", port: 8080)
    /// `--token`, else `$STATEHOUSE_TOKEN`; sent as `Authorization: Bearer …` (RFC 6750 §2.1).
    var token: String?

    /// The `Authorization` field when a token is set.
    var authorizationFields: [(name: String, value: String)] {
        token.map { [(name: "Authorization", value: "Bearer \($0)")] } ?? []
    }

    /// Reads `arguments` for `command`: `--url` and `--token` plus `options` (each takes a value), the rest
    /// positional. Exits 2 (usage) on an unknown option, a missing value, or a URL that is not `http://host:port`.
    static func parse(_ arguments: [String], command: String, options: Set<String>) -> ClientInvocation {
        var invocation = ClientInvocation()
        var url = ProcessInfo.processInfo.environment["STATEHOUSE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        invocation.token = ProcessInfo.processInfo.environment["STATEHOUSE_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        CommandLineOptions.scan(
            arguments, options: options.union(["--url", "--token"]), context: " for \(command)",
            help: "statehouse \(command) --help", positional: { invocation.positionals.append($0) },
            take: { option, value in
                switch option {
                case "--url": url = value
                case "--token": invocation.token = value
                default: invocation.values[option] = value
                }
            })
        if let url {
            do {
                invocation.endpoint = try ServerEndpoint(parsing: url)
            } catch {
                fail(error.message, .usage)
            }
        }
        return invocation
    }

    /// The positional arguments, which must be `count` (else exit 2 naming `what`).
    func positionals(_ count: Int, command: String, what: String) -> [String] {
        guard positionals.count == count else {
            fail("\(command) takes \(what); see statehouse \(command) --help", .usage)
        }
        return positionals
    }
}
