import Foundation
import StatehouseTestClients
import Testing

extension ServerTests {
    /// The real binary under a small `ulimit -n`: connections past what the descriptors allow are answered 503, not
    /// reset, the refusals are logged (rate-limited), and the server goes on serving.
    @Suite struct FileDescriptorLimitTests {
        @Test func pastTheDescriptorLimitEveryConnectionIsServedOrRefusedWith503() throws {
            let config = try CommandLineTests.writeConfig(
                #"{"listen":{"eventLoops":1},"stores":[{"name":"counter","reducer":"Counter"}]}"#)
            defer { try? FileManager.default.removeItem(atPath: config) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c", #"ulimit -n 128 && exec "$0" serve --config "$1" --port 0"#, CommandLineTests.binary.path, config,
            ]
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            defer { CommandLineTests.stop(process) }
            let line = try CommandLineTests.readLine(out.fileHandleForReading)
            let port = try #require(UInt16(line.split(separator: ":").last ?? ""))

            // 300 connections at once, each with a request, before any answer is read.
            let request = "GET /stores/counter HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            let sockets = try (0..<300).map { _ in try TestSocket(port: port) }
            // A refused connection may be closed before its request is sent: the answer still counts.
            for socket in sockets { try? socket.send(request) }
            var served = 0, refused = 0
            var unanswered: [String] = []
            for socket in sockets {
                defer { socket.close() }
                // Everything up to EOF, or up to a reset (what came before it counts).
                var bytes: [UInt8] = []
                var failure: String?
                while true {
                    do {
                        let chunk = try socket.receive(deadline: .now + .seconds(10))
                        if chunk.isEmpty { break }
                        bytes += chunk
                    } catch {
                        failure = "\(error)"
                        break
                    }
                }
                let text = String(decoding: bytes, as: UTF8.self)
                if text.hasPrefix("HTTP/1.1 200 ") {
                    served += 1
                } else if text.hasPrefix("HTTP/1.1 503 "), text.contains("\r\nRetry-After: 5\r\n"),
                    text.contains(#""code":"too_many_connections""#)
                {
                    refused += 1
                } else {
                    unanswered.append(text.isEmpty ? failure ?? "nothing" : String(text.prefix(40)))
                }
            }
            #expect(unanswered.isEmpty, "\(unanswered.count) without an answer: \(unanswered.prefix(5))")
            #expect(served > 0 && refused > 0, "served \(served), refused \(refused)")

            // Then a fresh client is served as usual (polled: refused connections may still be closing).
            var status = 0
            let deadline = ContinuousClock.now + .seconds(10)
            while status != 200, ContinuousClock.now < deadline {
                let client = try TestHTTPClient(port: port)
                status = (try? client.request("GET", "/stores/counter").status) ?? 0
                client.close()
            }
            #expect(status == 200)

            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let lines = log.split(separator: "\n")
            #expect(lines.contains { $0.contains("warning limits.maxConnections is 10000") && $0.contains("ulimit -n 128") })
            #expect(lines.contains { $0.contains("at most 56 connections") })
            let refusalLines = lines.filter { $0.contains("refused") && $0.contains("503 too_many_connections") }
            #expect(!refusalLines.isEmpty && refusalLines.count < refused, "\(refusalLines.count) refusal lines")
        }
    }
}
