import Foundation
import JSON

/// A configuration file that cannot be used; `description` is one line naming the file, the place and the problem.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The file's path as given.
    public var path: String
    /// Where in the file, e.g. `stores[1].reducer`; empty for the whole file.
    public var location: String
    /// What is wrong and what to do.
    public var problem: String

    public var description: String {
        // Names and values come from the file (and the path from the command line): escaped, so the line stays one
        // line and never drives a terminal.
        (location.isEmpty ? "\(path): \(problem)" : "\(path): \(location): \(problem)").escapingLineBreaks
    }
}

/// Reads and checks a configuration file. Unknown keys are errors, so a typo never passes silently.
public enum ConfigurationLoader {
    /// Loads the file at `path`.
    /// - Throws: ``ConfigurationError`` for an unreadable file, malformed JSON, a key repeated within one object,
    ///   unknown or mistyped keys, an invalid or duplicate store name, a store without a reducer, or a store `log` entry
    ///   other than `actions` and `state`. (Reducer names and states are checked by the ``ReducerCatalog`` when the
    ///   stores are built.)
    public static func load(path: String) throws(ConfigurationError) -> ServerConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(path: path, location: "", problem: "cannot read the file; check the path given to --config")
        }
        return try parse(Array(data), path: path)
    }

    /// Parses configuration JSON (UTF-8 bytes, RFC 8259, parsed once by the project's ``JSON/JSONValue`` parser);
    /// `path` only labels errors.
    /// - Throws: ``ConfigurationError`` as for ``load(path:)``; for malformed JSON its problem gives the parser's
    ///   reason and byte offset, for a repeated key its location is the repeated member (e.g. `listen.port`).
    public static func parse(_ bytes: [UInt8], path: String) throws(ConfigurationError) -> ServerConfiguration {
        let reader = ConfigReader(path: path)
        let root: JSONValue
        do {
            root = try JSONValue(parsing: bytes, rejectingDuplicateKeys: true)
        } catch let error where error.reason == .duplicateKey {
            let pointer = error.pointer ?? .root
            // The lenient parse only tells array indices from object keys in the location.
            let location = ConfigReader.location(of: pointer, in: try? JSONValue(parsing: bytes))
            throw reader.fail(location, "appears twice; keep one")
        } catch {
            throw ConfigurationError(path: path, location: "", problem: "not valid JSON (\(error))")
        }
        var config = ServerConfiguration()
        let top = try reader.object(root, at: "")
        try reader.allowOnly(["listen", "limits", "streams", "timeouts", "auth", "cors", "storage", "log", "stores"], in: top, at: "")
        if let listen = top["listen"] {
            let object = try reader.object(listen, at: "listen")
            try reader.allowOnly(["host", "port", "eventLoops", "storeExecutor"], in: object, at: "listen")
            if let host = object["host"] {
                let text = try reader.string(host, at: "listen.host")
                guard let address = ServerConfiguration.bindAddress(for: text) else {
                    throw reader.fail("listen.host", "\"\(text)\" is not an IPv4 or IPv6 address; use e.g. 127.0.0.1, 0.0.0.0, ::1 or localhost")
                }
                config.host = address
            }
            if let port = object["port"] { config.port = try reader.integer(port, at: "listen.port", in: 0...65535) }
            if let loops = object["eventLoops"] { config.eventLoops = try reader.integer(loops, at: "listen.eventLoops", in: 1...64) }
            if let executor = object["storeExecutor"] {
                let text = try reader.string(executor, at: "listen.storeExecutor")
                guard let choice = StoreExecutorChoice(rawValue: text) else {
                    throw reader.fail("listen.storeExecutor", "\"\(text)\" is not a store executor; use \"loop\" or \"pool\"")
                }
                config.storeExecutor = choice
            }
        }
        if let limits = top["limits"] {
            config.limits = try reader.limits(limits)
        }
        if let streams = top["streams"] {
            config.streams = try reader.streams(streams)
        }
        if let timeouts = top["timeouts"] {
            config.timeouts = try reader.timeouts(timeouts)
        }
        if let auth = top["auth"] {
            config.auth = try reader.auth(auth)
        }
        if let cors = top["cors"] {
            config.cors = try reader.cors(cors)
        }
        if let log = top["log"] {
            let object = try reader.object(log, at: "log")
            try reader.allowOnly(["level"], in: object, at: "log")
            if let level = object["level"] {
                let text = try reader.string(level, at: "log.level")
                guard let parsed = Logger.Level(name: text) else {
                    throw reader.fail("log.level", "\"\(text)\" is not a level; use debug, info, warning or error")
                }
                config.logLevel = parsed
            }
        }
        if let storage = top["storage"], case .object(let fields) = storage, fields["redis"] != nil {
            guard fields["path"] == nil else {
                throw reader.fail("storage", "has both path (SQLite) and redis (a cluster); keep one")
            }
            config.cluster = try reader.cluster(fields)
        } else if let storage = top["storage"] {
            config.storage = try reader.storage(storage)
            if let storage = config.storage, storage.retainActions < config.streams.historySize {
                throw reader.fail(
                    "storage.retainActions",
                    "must be at least streams.historySize (\(config.streams.historySize)), so a restart can rebuild the history")
            }
        }
        guard let stores = top["stores"] else {
            throw ConfigurationError(path: path, location: "stores", problem: "missing; list the stores to host")
        }
        config.stores = try reader.stores(stores)
        return config
    }
}
