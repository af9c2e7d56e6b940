import JSON

extension ConfigReader {
    /// `"storage": {"path": "data/statehouse.sqlite", "sync": "commit", …}` (see ``StorageConfiguration``).
    func storage(_ value: JSONValue) throws(ConfigurationError) -> StorageConfiguration {
        let object = try self.object(value, at: "storage")
        try allowOnly(
            ["path", "sync", "intervalMs", "snapshotEveryActions", "snapshotEveryBytes", "retainActions", "maxBytes",
             "keyTtlSeconds"],
            in: object, at: "storage")
        guard let pathValue = object["path"] else {
            throw fail("storage.path", "missing; name the database file, e.g. \"data/statehouse.sqlite\"")
        }
        let path = try string(pathValue, at: "storage.path")
        guard !path.isEmpty else { throw fail("storage.path", "must not be empty") }
        var storage = StorageConfiguration(path: path)
        if let v = object["sync"] {
            let text = try string(v, at: "storage.sync")
            guard let mode = SyncMode(rawValue: text) else {
                throw fail("storage.sync", "\"\(text)\" is not a sync mode; use \"commit\", \"interval\" or \"off\"")
            }
            storage.sync = mode
        }
        if let v = object["intervalMs"] { storage.intervalMs = try integer(v, at: "storage.intervalMs", in: 1...60_000) }
        if let v = object["snapshotEveryActions"] {
            storage.snapshotEveryActions = try integer(v, at: "storage.snapshotEveryActions", in: 1...100_000_000)
        }
        if let v = object["snapshotEveryBytes"] {
            storage.snapshotEveryBytes = try integer(v, at: "storage.snapshotEveryBytes", in: 1024...(1 << 40))
        }
        if let v = object["retainActions"] {
            storage.retainActions = try integer(v, at: "storage.retainActions", in: 0...1_000_000_000)
        }
        if let v = object["maxBytes"] { storage.maxBytes = try integer(v, at: "storage.maxBytes", in: 65_536...(1 << 50)) }
        if let v = object["keyTtlSeconds"] {
            storage.keyTtlSeconds = try integer(v, at: "storage.keyTtlSeconds", in: 1...(86_400 * 365))
        }
        return storage
    }
}
