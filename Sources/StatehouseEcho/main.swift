import Foundation
import UVLoop

// statehouse-echo: a WebSocket echo server for Autobahn|Testsuite. Exit codes: 0 after SIGINT/SIGTERM,
// 1 when the address cannot be bound, 2 for bad usage.

let options: EchoOptions
do {
    options = try EchoOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    if let message = error.message {
        FileHandle.standardError.write(Data("statehouse-echo: \(message); see --help\n".utf8))
        exit(2)
    }
    print(EchoOptions.usage, terminator: "")
    exit(0)
}

prepareProcessSignals()
let loop: EventLoop
do {
    loop = try EventLoop()
} catch {
    FileHandle.standardError.write(Data("statehouse-echo: cannot create the event loop: \(error)\n".utf8))
    exit(1)
}
loop.start()

let stopRequested = DispatchSemaphore(value: 0)
let listenerPort: Int
do {
    let (host, port, limit) = (options.host, options.port, options.maxMessageBytes)
    listenerPort = try loop.submitAndWait {
        let listener = try TCPListener(loop: loop, host: host, port: port) { connection in
            EchoConnection(connection: connection, maxMessageBytes: limit).start()
        }
        for signal in [SIGINT, SIGTERM] {
            _ = SignalWatcher(loop: loop, signal: signal) { stopRequested.signal() }
        }
        return listener.port
    }
} catch {
    FileHandle.standardError.write(Data("statehouse-echo: cannot listen on \(options.host):\(options.port): \(error)\n".utf8))
    loop.stop()
    exit(1)
}

let shownHost = options.host.contains(":") ? "[\(options.host)]" : options.host
FileHandle.standardOutput.write(Data("statehouse-echo listening on ws://\(shownHost):\(listenerPort)\n".utf8))
stopRequested.wait()
loop.stop()
exit(0)
