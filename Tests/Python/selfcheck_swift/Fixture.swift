import Foundation
import StatehouseTestClients

/// Starts Tests/Python/selfcheck_fixture.py once for the whole run.
final class Fixture: @unchecked Sendable {
    static let shared = Fixture()
    let httpPort: UInt16
    let wsPort: UInt16
    private let process = Process()
    private let stdinPipe = Pipe()

    private init() {
        process.executableURL = URL(fileURLWithPath: TestPython.interpreter)
        process.arguments = [TestPython.packageRoot + "/Tests/Python/selfcheck_fixture.py"]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = stdinPipe
        try! process.run()
        var ports: [String: UInt16] = [:]
        var buffer = Data()
        while ports.count < 2 {
            let chunk = out.fileHandleForReading.availableData
            precondition(!chunk.isEmpty, "fixture died")
            buffer += chunk
            for line in String(decoding: buffer, as: UTF8.self).split(separator: "\n") {
                let parts = line.split(separator: " ")
                if parts.count == 2, let port = UInt16(parts[1]) { ports[String(parts[0])] = port }
            }
        }
        httpPort = ports["HTTP"]!
        wsPort = ports["WS"]!
    }
}
