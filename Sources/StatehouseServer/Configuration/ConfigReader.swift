import Foundation

/// Typed access to parsed JSON with errors that name the file and the key path.
struct ConfigReader {
    let path: String

    func fail(_ location: String, _ problem: String) -> ConfigurationError {
        ConfigurationError(path: path, location: location, problem: problem)
    }

    func object(_ value: Any, at location: String) throws(ConfigurationError) -> [String: Any] {
        guard let object = value as? [String: Any] else { throw fail(location, "must be a JSON object") }
        return object
    }

    func string(_ value: Any, at location: String) throws(ConfigurationError) -> String {
        guard let string = value as? String else { throw fail(location, "must be a string") }
        return string
    }

    func integer(_ value: Any, at location: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c",
            let integer = Int(exactly: number.doubleValue), range.contains(integer)
        else { throw fail(location, "must be an integer from \(range.lowerBound) to \(range.upperBound)") }
        return integer
    }

    func allowOnly(_ keys: Set<String>, in object: [String: Any], at location: String) throws(ConfigurationError) {
        for key in object.keys.sorted() where !keys.contains(key) {
            let place = location.isEmpty ? key : "\(location).\(key)"
            throw fail(place, "unknown key; allowed here: \(keys.sorted().joined(separator: ", "))")
        }
    }

    func limits(_ value: Any) throws(ConfigurationError) -> ServerConfiguration.Limits {
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

    func timeouts(_ value: Any) throws(ConfigurationError) -> ServerConfiguration.Timeouts {
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

    func streams(_ value: Any) throws(ConfigurationError) -> ServerConfiguration.Streams {
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

    func stores(_ value: Any) throws(ConfigurationError) -> [ServerConfiguration.StoreDeclaration] {
        guard let list = value as? [Any] else { throw fail("stores", "must be a JSON array of store objects") }
        var seen: [String: Int] = [:]
        var declarations: [ServerConfiguration.StoreDeclaration] = []
        for (index, item) in list.enumerated() {
            let at = "stores[\(index)]"
            let object = try self.object(item, at: at)
            try allowOnly(["name", "reducer", "state", "durable"], in: object, at: at)
            guard let nameValue = object["name"] else { throw fail("\(at).name", "missing; give the store a name") }
            let name = try string(nameValue, at: "\(at).name")
            guard ServerConfiguration.isValidStoreName(name) else {
                throw fail("\(at).name", "\"\(name)\" is not a valid store name; use 1 to 64 of A-Z a-z 0-9 . _ -")
            }
            if let first = seen[name] {
                throw fail("\(at).name", "duplicate store name \"\(name)\" (also stores[\(first)]); names must be unique")
            }
            seen[name] = index
            guard let reducerValue = object["reducer"] else {
                throw fail("\(at).reducer", "missing; name the reducer type, e.g. \"Counter\"")
            }
            let reducer = try string(reducerValue, at: "\(at).reducer")
            var state: [UInt8]?
            if let stateValue = object["state"] {
                guard let data = try? JSONSerialization.data(withJSONObject: stateValue, options: [.fragmentsAllowed])
                else { throw fail("\(at).state", "cannot be read as JSON") }
                state = Array(data)
            }
            var durable = true
            if let v = object["durable"] {
                guard let flag = v as? NSNumber, String(cString: flag.objCType) == "c" else {
                    throw fail("\(at).durable", "must be true or false")
                }
                durable = flag.boolValue
            }
            declarations.append(.init(name: name, reducer: reducer, initialState: state, durable: durable))
        }
        return declarations
    }
}
