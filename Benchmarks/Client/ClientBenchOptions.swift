import StatehouseClient

/// The command line of `statehouse-client-bench`:
///
/// ```
/// statehouse-client-bench --url http://127.0.0.1:PORT [--store counter] [--seconds 3] [--actions 1000000]
///                         [--windows 1,64] [--changes 1000] [--warmup 100] [--measure send,latency]
///                         [--clients remote,raw]
/// ```
///
/// - `--url`: a running server hosting `--store` with the `Counter` reducer (Benchmarks/statehouse-bench.json).
/// - `--seconds`, `--actions`: each send-throughput run stops at whichever comes first (seconds > 0, actions ≥ 1).
/// - `--windows`: the actions kept in flight (W), one run per W per client.
/// - `--changes`: timed changes per latency run (≥ 1), after `--warmup` untimed ones.
/// - `--measure`: which measurements (`send`, `latency`).
/// - `--clients`: which clients (`remote`: a ``RemoteStore``; `raw`: a hand-written ``WebSocketClient`` one); one
///   alone is for profiling.
struct ClientBenchOptions {
    var endpoint: ServerEndpoint
    var store = "counter"
    var seconds = 3.0
    var actions = 1_000_000
    var windows = [1, 64]
    var changes = 1_000
    var warmup = 100
    var measures: Set<String> = ["send", "latency"]
    var clients: Set<String> = ["remote", "raw"]

    static let usage = """
        usage: statehouse-client-bench --url http://127.0.0.1:PORT [--store counter] [--seconds 3] \
        [--actions 1000000] [--windows 1,64] [--changes 1000] [--warmup 100] [--measure send,latency] \
        [--clients remote,raw]
        """

    /// Reads `arguments` (without the program name).
    /// - Throws: ``BenchError`` naming the option that is missing or bad.
    static func parse(_ arguments: [String]) throws(BenchError) -> ClientBenchOptions {
        var values: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard name.hasPrefix("--"), index + 1 < arguments.count else {
                throw BenchError("\(name) needs a value. \(usage)")
            }
            values[String(name.dropFirst(2))] = arguments[index + 1]
            index += 2
        }
        guard let url = values.removeValue(forKey: "url") else { throw BenchError("--url is required. \(usage)") }
        let endpoint: ServerEndpoint
        do {
            endpoint = try ServerEndpoint(parsing: url)
        } catch {
            throw BenchError("--url \(url): \(error.message)")
        }
        var options = ClientBenchOptions(endpoint: endpoint)
        func positive(_ key: String) throws(BenchError) -> Int? {
            guard let text = values.removeValue(forKey: key) else { return nil }
            guard let number = Int(text), number > 0 else { throw BenchError("--\(key) must be a positive integer") }
            return number
        }
        if let store = values.removeValue(forKey: "store") { options.store = store }
        if let text = values.removeValue(forKey: "seconds") {
            guard let seconds = Double(text), seconds > 0 else { throw BenchError("--seconds must be a number > 0") }
            options.seconds = seconds
        }
        if let actions = try positive("actions") { options.actions = actions }
        if let changes = try positive("changes") { options.changes = changes }
        if let text = values.removeValue(forKey: "warmup") {
            guard let warmup = Int(text), warmup >= 0 else { throw BenchError("--warmup must be an integer ≥ 0") }
            options.warmup = warmup
        }
        if let text = values.removeValue(forKey: "windows") {
            let windows = text.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
            guard !windows.isEmpty else { throw BenchError("--windows takes positive integers, e.g. 1,64") }
            options.windows = windows
        }
        if let text = values.removeValue(forKey: "measure") {
            options.measures = Set(text.split(separator: ",").map(String.init))
            let unknown = options.measures.subtracting(["send", "latency"])
            guard unknown.isEmpty else { throw BenchError("--measure takes send and latency, not \(unknown.sorted())") }
        }
        if let text = values.removeValue(forKey: "clients") {
            options.clients = Set(text.split(separator: ",").map(String.init))
            let unknown = options.clients.subtracting(["remote", "raw"])
            guard unknown.isEmpty else { throw BenchError("--clients takes remote and raw, not \(unknown.sorted())") }
        }
        if let unknown = values.keys.sorted().first { throw BenchError("unknown option --\(unknown). \(usage)") }
        return options
    }
}

/// Why a run could not measure: a sentence, printed as `RESULT … error=…` and on standard error.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
