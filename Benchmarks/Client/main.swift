// statehouse-client-bench: the Swift client library against a running server (Benchmarks/run client).
//
// Prints one `RESULT key=value …` line per measurement:
//  - send throughput (name=send-remote-wW, send-raw-wW): `increment` actions acked per second for one RemoteStore
//    with W actions in flight, and for a raw WebSocketClient writing the /ws messages by hand (subscribed too, each
//    server message parsed with JSONValue(parsing:) only to find the acks);
//  - change → observe latency (name=latency-remote, latency-raw): a driver connection (raw) sends one increment at a
//    time; the time from just before that send to the RemoteStore.observe callback with that version, and to the
//    raw subscriber parsing the state/patch message of that version.
// Each line carries the process's CPU time per action or change (all threads: client loops, tasks, the driver).
// Exit code 1 when a measurement failed (its line then carries error=…).

import DemoReducers
import Foundation
import StatehouseClient
import UVLoop

let options: ClientBenchOptions
do {
    options = try ClientBenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("statehouse-client-bench: \(error)\n".utf8))
    exit(2)
}

#if DEBUG
print("statehouse-client-bench: debug build (figures are not meaningful)")
#endif

// The driver and the raw sender run on `loop`; the raw subscriber runs on a loop of its own, as the RemoteServer's
// connection does, apart from the driver's.
let loop: EventLoop
let receiverLoop: EventLoop
do {
    loop = try EventLoop()
    receiverLoop = try EventLoop()
} catch {
    print(ResultLine.failure(name: "setup", BenchError("no event loop: \(error)")).text)
    exit(1)
}
loop.start()
receiverLoop.start()

var failed = false
/// Runs one measurement of `client` (`remote` or `raw`, unless `--clients` leaves it out) and prints its line.
@MainActor func report(_ name: String, client: String, _ body: () async throws(BenchError) -> ResultLine) async {
    guard options.clients.contains(client) else { return }
    do {
        print(try await body().text)
    } catch {
        failed = true
        print(ResultLine.failure(name: name, error).text)
        FileHandle.standardError.write(Data("statehouse-client-bench: \(name): \(error)\n".utf8))
    }
}

func remoteServer() throws(BenchError) -> RemoteServer {
    do {
        return try RemoteServer(options.endpoint.description)
    } catch {
        throw BenchError("RemoteServer: \(error)")
    }
}

func ready(_ store: RemoteStore<Counter>) async throws(BenchError) -> UInt64 {
    do {
        return try await store.current().version
    } catch {
        throw BenchError("RemoteStore.current: \(error)")
    }
}

if options.measures.contains("send") {
    for window in options.windows {
        await report("send-remote-w\(window)", client: "remote") { () async throws(BenchError) -> ResultLine in
            let server = try remoteServer()
            let store = server.store(options.store, of: Counter.self)
            _ = try await ready(store)
            let cpu = processCPUMicroseconds()
            let (count, elapsed) = try await SendRun.remote(
                store: store, window: window, total: options.actions, seconds: options.seconds)
            let used = processCPUMicroseconds() - cpu
            await server.close()
            return .send(name: "send-remote-w\(window)", client: "RemoteStore", window: window, count: count,
                         elapsedNs: elapsed, cpuMicroseconds: used)
        }
        await report("send-raw-w\(window)", client: "raw") { () async throws(BenchError) -> ResultLine in
            let (client, _) = try await RawClient.connect(
                loop: loop, endpoint: options.endpoint, store: options.store, subscribing: true)
            let cpu = processCPUMicroseconds()
            let (count, elapsed) = try await SendRun.raw(
                client: client, window: window, total: options.actions, seconds: options.seconds)
            let used = processCPUMicroseconds() - cpu
            await client.shutDown()
            return .send(name: "send-raw-w\(window)", client: "WebSocketClient", window: window, count: count,
                         elapsedNs: elapsed, cpuMicroseconds: used)
        }
    }
}

if options.measures.contains("latency") {
    await report("latency-remote", client: "remote") { () async throws(BenchError) -> ResultLine in
        let server = try remoteServer()
        let store = server.store(options.store, of: Counter.self)
        let version = try await ready(store)
        let (driver, _) = try await RawClient.connect(
            loop: loop, endpoint: options.endpoint, store: options.store, subscribing: false)
        let cpu = processCPUMicroseconds()
        let samples = try await LatencyProbe.run(
            driver: driver, version: version, changes: options.changes, warmup: options.warmup
        ) { probe in
            _ = store.observe { snapshot in probe.received(version: snapshot.version, atNs: nowNs) }
        }
        let used = processCPUMicroseconds() - cpu
        await driver.shutDown()
        await server.close()
        return .latency(name: "latency-remote", client: "RemoteStore", samples: samples, cpuMicroseconds: used)
    }
    await report("latency-raw", client: "raw") { () async throws(BenchError) -> ResultLine in
        let (receiver, first) = try await RawClient.connect(
            loop: receiverLoop, endpoint: options.endpoint, store: options.store, subscribing: true)
        let (driver, _) = try await RawClient.connect(
            loop: loop, endpoint: options.endpoint, store: options.store, subscribing: false)
        let cpu = processCPUMicroseconds()
        let samples = try await LatencyProbe.run(
            driver: driver, version: first ?? 0, changes: options.changes, warmup: options.warmup
        ) { probe in
            // Installed before the probe's first send (this runs on the driver's loop, not the receiver's).
            try? receiver.loop.submitAndWait {
                receiver.onMessage = { object, at in
                    let type = object["type"]?.stringValue
                    if type == "state" || type == "patch", let version = object.version {
                        probe.received(version: version, atNs: at)
                    }
                }
            }
        }
        let used = processCPUMicroseconds() - cpu
        await driver.shutDown()
        await receiver.shutDown()
        return .latency(name: "latency-raw", client: "WebSocketClient", samples: samples, cpuMicroseconds: used)
    }
}

loop.stop()
receiverLoop.stop()
exit(failed ? 1 : 0)
