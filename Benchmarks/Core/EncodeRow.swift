import DemoReducers

/// One row of the encode-cost table: one encoder, one state, a number of encodes per run.
struct EncodeRow {
    var encoder: any StateEncoder
    var stateName: String
    var encodes: Int
    /// Encodes the state once with `encoder`; returns the byte count.
    var encodeOnce: (any StateEncoder) throws -> Int

    static func all(_ settings: BenchSettings) -> [EncodeRow] {
        let counter = Counter.State(count: 123_456)
        let todos = EncodeFixtures.todoList
        var rows: [EncodeRow] = []
        for encoder in makeStateEncoders() {
            rows.append(EncodeRow(encoder: encoder, stateName: "Counter `{\"count\":123456}`", encodes: settings.encodes) {
                try $0.byteCount(of: counter)
            })
            rows.append(EncodeRow(
                encoder: encoder, stateName: "TodoList, \(todos.items.count) items",
                encodes: max(settings.encodes / 10, 100)
            ) {
                try $0.byteCount(of: todos)
            })
        }
        return rows
    }

    static let tableHeader = """
        | encoder | state | bytes | encodes per run | ns per state | states/s | MB/s |
        |---|---|---:|---:|---:|---:|---:|
        """

    static let footnote = """
        One encoder instance per row, reused; each encode produces a fresh byte buffer (counted, then dropped). \
        Time per state is the run's wall time divided by its encodes, one thread.
        """

    /// Runs the row `runs` times and returns the median time per encode.
    func measure(runs: Int) -> EncodeResult {
        let bytes: Int
        do {
            bytes = try encodeOnce(encoder)
        } catch {
            failCheck("\(encoder.name) cannot encode \(stateName): \(error)")
        }
        var perState: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<runs {
            var total = 0
            let start = clock.now
            for _ in 0..<encodes {
                total &+= (try? encodeOnce(encoder)) ?? 0
            }
            let elapsed = (clock.now - start).seconds
            guard total == bytes * encodes else { failCheck("\(stateName): \(total) bytes, expected \(bytes * encodes)") }
            perState.append(elapsed * 1e9 / Double(encodes))
        }
        return EncodeResult(row: self, bytes: bytes, nanosecondsPerState: median(perState))
    }
}

/// The median figure of one ``EncodeRow``.
struct EncodeResult {
    var row: EncodeRow
    var bytes: Int
    var nanosecondsPerState: Double

    var markdown: String {
        let statesPerSecond = 1e9 / nanosecondsPerState
        let megabytesPerSecond = Double(bytes) * statesPerSecond / 1e6
        return "| \(row.encoder.name) | \(row.stateName) | \(grouped(Double(bytes))) | \(grouped(Double(row.encodes))) | "
            + "\(grouped(nanosecondsPerState)) | \(grouped(statesPerSecond)) | \(grouped(megabytesPerSecond)) |"
    }
}
