import JSON
import StatehouseCore

/// Typed access to the parsed configuration (a ``JSON/JSONValue``) with errors that name the file and the key path
/// (`stores[1].reducer`).
struct ConfigReader {
    let path: String

    func fail(_ location: String, _ problem: String) -> ConfigurationError {
        ConfigurationError(path: path, location: location, problem: problem)
    }

    func object(_ value: JSONValue, at location: String) throws(ConfigurationError) -> JSONObject {
        guard case .object(let object) = value else { throw fail(location, "must be a JSON object") }
        return object
    }

    func string(_ value: JSONValue, at location: String) throws(ConfigurationError) -> String {
        guard case .string(let string) = value else { throw fail(location, "must be a string") }
        return string
    }

    /// A JSON number whose exact value is an integer in `range` (`1e3` and `1.0` count; `true`, `"1"`, `1.5` do not).
    func integer(_ value: JSONValue, at location: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard case .number(let number) = value, let integer = number.intValue, range.contains(integer)
        else { throw fail(location, "must be an integer from \(range.lowerBound) to \(range.upperBound)") }
        return integer
    }

    /// `true` or `false` (not `1`, not `"true"`).
    func bool(_ value: JSONValue, at location: String) throws(ConfigurationError) -> Bool {
        guard case .bool(let flag) = value else { throw fail(location, "must be true or false") }
        return flag
    }

    /// The strings of a non-empty array of strings, else nil.
    func nonEmptyStrings(_ value: JSONValue?) -> [String]? {
        guard case .array(let elements)? = value, !elements.isEmpty else { return nil }
        var strings: [String] = []
        for element in elements {
            guard case .string(let string) = element else { return nil }
            strings.append(string)
        }
        return strings
    }

    func allowOnly(_ keys: Set<String>, in object: JSONObject, at location: String) throws(ConfigurationError) {
        for key in object.keys.sorted() where !keys.contains(key) {
            let place = location.isEmpty ? key : "\(location).\(key)"
            throw fail(place, "unknown key; allowed here: \(keys.sorted().joined(separator: ", "))")
        }
    }

    func limits(_ value: JSONValue) throws(ConfigurationError) -> ServerConfiguration.Limits {
        let object = try self.object(value, at: "limits")
        try allowOnly(
            ["maxBodyBytes", "maxHeaderBytes", "maxMessageBytes", "maxHeaderFields", "maxConnections", "maxStores"], in: object, at: "limits")
        var limits = ServerConfiguration.Limits()
        let range = 1...(1 << 30)
        if let v = object["maxBodyBytes"] { limits.maxBodyBytes = try integer(v, at: "limits.maxBodyBytes", in: range) }
        if let v = object["maxHeaderBytes"] {
            limits.maxHeaderBytes = try integer(v, at: "limits.maxHeaderBytes", in: 256...(1 << 20))
        }
        if let v = object["maxMessageBytes"] {
            limits.maxMessageBytes = try integer(v, at: "limits.maxMessageBytes", in: range)
        }
        if let v = object["maxHeaderFields"] { limits.maxHeaderFields = try integer(v, at: "limits.maxHeaderFields", in: 1...10_000) }
        if let v = object["maxConnections"] { limits.maxConnections = try integer(v, at: "limits.maxConnections", in: 1...1_000_000) }
        if let v = object["maxStores"] { limits.maxStores = try integer(v, at: "limits.maxStores", in: 1...100_000_000) }
        return limits
    }

    func timeouts(_ value: JSONValue) throws(ConfigurationError) -> ServerConfiguration.Timeouts {
        let object = try self.object(value, at: "timeouts")
        let keys: [String: WritableKeyPath<ServerConfiguration.Timeouts, Int>] = [
            "headerTimeoutMs": \.headerTimeoutMs, "bodyTimeoutMs": \.bodyTimeoutMs, "idleTimeoutMs": \.idleTimeoutMs,
            "pingIntervalMs": \.pingIntervalMs, "pongTimeoutMs": \.pongTimeoutMs,
            "writeStallMs": \.writeStallMs,
        ]
        try allowOnly(Set(keys.keys), in: object, at: "timeouts")
        var timeouts = ServerConfiguration.Timeouts()
        for (key, path) in keys {
            if let v = object[key] { timeouts[keyPath: path] = try integer(v, at: "timeouts.\(key)", in: 10...86_400_000) }
        }
        return timeouts
    }

    func streams(_ value: JSONValue) throws(ConfigurationError) -> ServerConfiguration.Streams {
        let object = try self.object(value, at: "streams")
        try allowOnly(["historySize", "writeHighWaterBytes", "maxLagSeconds", "sseHeartbeatMs"], in: object, at: "streams")
        var streams = ServerConfiguration.Streams()
        if let v = object["historySize"] { streams.historySize = try integer(v, at: "streams.historySize", in: 1...100_000) }
        if let v = object["writeHighWaterBytes"] {
            streams.writeHighWaterBytes = try integer(v, at: "streams.writeHighWaterBytes", in: 1024...(1 << 30))
        }
        if let v = object["maxLagSeconds"] { streams.maxLagSeconds = try integer(v, at: "streams.maxLagSeconds", in: 1...86_400) }
        if let v = object["sseHeartbeatMs"] {
            streams.sseHeartbeatMs = try integer(v, at: "streams.sseHeartbeatMs", in: 100...3_600_000)
        }
        return streams
    }

    func stores(_ value: JSONValue) throws(ConfigurationError) -> [ServerConfiguration.StoreDeclaration] {
        guard case .array(let list) = value else { throw fail("stores", "must be a JSON array of store objects") }
        var seen: [String: Int] = [:]
        var declarations: [ServerConfiguration.StoreDeclaration] = []
        for (index, item) in list.enumerated() {
            let at = "stores[\(index)]"
            let object = try self.object(item, at: at)
            try allowOnly(["name", "reducer", "state", "durable", "log"], in: object, at: at)
            guard let nameValue = object["name"] else { throw fail("\(at).name", "missing; give the store a name") }
            let name = try string(nameValue, at: "\(at).name")
            guard ServerConfiguration.isValidStoreName(name) else {
                throw fail("\(at).name", "\"\(name)\" is not a valid store name; use 1 to 64 of A-Z a-z 0-9 . _ - (not . or ..)")
            }
            if let first = seen[name] {
                throw fail("\(at).name", "duplicate store name \"\(name)\" (also stores[\(first)]); names must be unique")
            }
            seen[name] = index
            guard let reducerValue = object["reducer"] else {
                throw fail("\(at).reducer", "missing; name the reducer type, e.g. \"Counter\"")
            }
            let reducer = try string(reducerValue, at: "\(at).reducer")
            // Written back compact, members and number texts as in the file; the reducer's State decodes it later.
            let state = object["state"]?.serialized()
            var durable = true
            if let v = object["durable"] { durable = try bool(v, at: "\(at).durable") }
            let log = try object["log"].map { v throws(ConfigurationError) in try storeLogging(v, at: "\(at).log") } ?? []
            declarations.append(.init(name: name, reducer: reducer, initialState: state, durable: durable, log: log))
        }
        return declarations
    }

    /// A store's `log`: an array of `"actions"` and `"state"` (`[]` for nothing; an entry given twice counts once).
    func storeLogging(_ value: JSONValue, at location: String) throws(ConfigurationError) -> StoreLogging {
        let allowed = "\"actions\" and \"state\""
        guard case .array(let entries) = value else {
            throw fail(location, "must be a JSON array of \(allowed), e.g. [\"actions\"]")
        }
        var logging: StoreLogging = []
        for (index, entry) in entries.enumerated() {
            guard case .string(let word) = entry, let option = StoreLogging(name: word) else {
                let given = if case .string(let word) = entry { "\"\(word)\"" } else { "not a string" }
                throw fail("\(location)[\(index)]", "\(given) is not a log option; use \(allowed)")
            }
            logging.insert(option)
        }
        return logging
    }

    /// `pointer` (into this file) in the errors' location syntax, e.g. `/stores/1/name` → `stores[1].name`: a token is
    /// an index where `root` (the file parsed leniently, when it parses) holds an array, or, past what `root` shows,
    /// where it is all digits.
    static func location(of pointer: JSONPointer, in root: JSONValue?) -> String {
        var location = ""
        var value = root
        for token in pointer.tokens {
            let isIndex: Bool
            switch value {
            case .array?: isIndex = true
            case nil: isIndex = !token.isEmpty && token.utf8.allSatisfy { (0x30...0x39).contains($0) }
            default: isIndex = false
            }
            if isIndex {
                location += "[\(token)]"
                value = Int(token).flatMap { index in value?.arrayValue.flatMap { index < $0.count ? $0[index] : nil } }
            } else {
                location += location.isEmpty ? token : ".\(token)"
                value = value?.objectValue?[token]
            }
        }
        return location
    }
}
