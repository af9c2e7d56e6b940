import Foundation
import JSON

extension ConfigReader {
    /// `"storage": {"redis": "redis://…", "node": "n1", "leaseMs": 2000, …}` (see ``ClusterConfiguration``).
    func cluster(_ object: JSONObject) throws(ConfigurationError) -> ClusterConfiguration {
        try allowOnly(
            ["redis", "node", "leaseMs", "snapshotEveryActions", "retainActions", "keyTtlSeconds", "forwardTimeoutMs"],
            in: object, at: "storage")
        let url = try string(object["redis"]!, at: "storage.redis")
        guard url.hasPrefix("redis://") || url.hasPrefix("unix://") || url.hasPrefix("redis+unix://") else {
            throw fail("storage.redis", "\"\(url)\" is not a Redis URL; write redis://HOST:PORT or unix:///path/to/socket")
        }
        var node = "\(ProcessInfo.processInfo.hostName)-\(getpid())"
        if let v = object["node"] {
            node = try string(v, at: "storage.node")
            guard ClusterConfiguration.isNodeName(node) else {
                throw fail("storage.node", "\"\(node)\" is not a node name; use 1 to 64 letters, digits, '-', '_' or '.'")
            }
        }
        var cluster = ClusterConfiguration(redis: url, node: node)
        if let v = object["leaseMs"] { cluster.leaseMs = try integer(v, at: "storage.leaseMs", in: 200...600_000) }
        if let v = object["snapshotEveryActions"] {
            cluster.snapshotEveryActions = try integer(v, at: "storage.snapshotEveryActions", in: 1...100_000_000)
        }
        if let v = object["retainActions"] {
            cluster.retainActions = try integer(v, at: "storage.retainActions", in: 0...1_000_000_000)
        }
        if let v = object["keyTtlSeconds"] {
            cluster.keyTtlSeconds = try integer(v, at: "storage.keyTtlSeconds", in: 1...(86_400 * 365))
        }
        if let v = object["forwardTimeoutMs"] {
            cluster.forwardTimeoutMs = try integer(v, at: "storage.forwardTimeoutMs", in: 100...600_000)
        }
        return cluster
    }
}

extension ClusterConfiguration {
    /// 1 to 64 of `A-Z a-z 0-9 - _ .` (a node name is part of lease values and channel names).
    public static func isNodeName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || $0 == 0x2E || (0x30...0x39).contains($0)
                || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }
}
