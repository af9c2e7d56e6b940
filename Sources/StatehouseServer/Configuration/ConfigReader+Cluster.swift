import Foundation
import JSON
import Redis

extension ConfigReader {
    /// `"storage": {"redis": "redis://…", "node": "n1", "leaseMs": 2000, …}` (see ``ClusterConfiguration``).
    func cluster(_ object: JSONObject) throws(ConfigurationError) -> ClusterConfiguration {
        try allowOnly(
            ["redis", "node", "leaseMs", "snapshotEveryActions", "retainActions", "keyTtlSeconds", "forwardTimeoutMs"],
            in: object, at: "storage")
        let url = try string(object["redis"]!, at: "storage.redis")
        if case .failure(let problem) = ClusterConfiguration.endpoint(url) { throw fail("storage.redis", problem.description) }
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
    /// The Redis server of `url`, or what is wrong with it: not a Redis URL (redis://HOST:PORT or unix:///path), or
    /// a database other than 0 (pub/sub channels are shared by every database of a server: two clusters on one server
    /// would read each other's changes).
    static func endpoint(_ url: String) -> Result<RedisEndpoint, ClusterURLProblem> {
        let endpoint: RedisEndpoint
        do {
            endpoint = try RedisEndpoint(url: url)
        } catch {
            return .failure(ClusterURLProblem(description: "\"\(url)\" is not a Redis URL (\(error.message))"))
        }
        guard endpoint.database == 0 else {
            return .failure(ClusterURLProblem(
                description: "names database \(endpoint.database); a cluster uses database 0 of its own redis-server "
                    + "(pub/sub channels are shared by every database of a server, so two clusters on one server would "
                    + "read each other's changes)"))
        }
        return .success(endpoint)
    }

    /// 1 to 64 of `A-Z a-z 0-9 - _ .` (a node name is part of lease values and channel names).
    public static func isNodeName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || $0 == 0x2E || (0x30...0x39).contains($0)
                || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }
}

/// Why a `storage.redis` URL cannot serve a cluster (a sentence).
struct ClusterURLProblem: Error, CustomStringConvertible {
    let description: String
}
