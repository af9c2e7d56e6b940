import Foundation
import Synchronization
import Locking

/// Runs a child process with captured output and a hard time limit.
enum Subprocess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `executable` with `arguments`, stdin from /dev/null.
    ///
    /// Both pipes are drained on their own threads while the child runs, so a chatty child never
    /// blocks on a full pipe. On timeout the child gets SIGTERM, then SIGKILL after 1 s.
    /// - Throws: `TestClientError` if the child cannot start or outlives `timeout`; the message
    ///   includes what it printed.
    static func run(_ executable: String, _ arguments: [String], timeout: Duration,
                    environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw TestClientError("cannot start \(executable): \(error)")
        }
        let drained = DispatchGroup()
        let outBox = DataBox(), errBox = DataBox()
        drain(outPipe.fileHandleForReading, into: outBox, group: drained)
        drain(errPipe.fileHandleForReading, into: errBox, group: drained)

        let watchdog = Watchdog(process: process)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(timeout.wholeMilliseconds)) {
            watchdog.fire()
        }
        drained.wait()  // the pipes reach EOF when the child exits (or is killed)
        process.waitUntilExit()
        watchdog.disarm()

        let result = Result(status: process.terminationStatus,
                            stdout: String(decoding: outBox.data, as: UTF8.self),
                            stderr: String(decoding: errBox.data, as: UTF8.self))
        if watchdog.didFire {
            throw TestClientError.timeout("\(executable) \(arguments.joined(separator: " ")) timed out after "
                                          + "\(timeout); stdout: \(result.stdout); stderr: \(result.stderr)")
        }
        return result
    }

    private static func drain(_ handle: FileHandle, into box: DataBox, group: DispatchGroup) {
        group.enter()
        Thread.detachNewThread {
            box.data = handle.readDataToEndOfFile()
            group.leave()
        }
    }

    /// Bytes filled by one reader thread and read after `DispatchGroup.wait` (which orders them).
    private final class DataBox: @unchecked Sendable {
        var data = Data()
    }

    /// Kills the child on timeout unless disarmed first.
    private final class Watchdog: @unchecked Sendable {
        private struct State {
            var armed = true
            var fired = false
        }
        private let state = Locked(State())
        private let process: Process

        init(process: Process) { self.process = process }

        var didFire: Bool { state.withLock { $0.fired } }

        func disarm() {
            state.withLock { $0.armed = false }
        }

        func fire() {
            let process = process
            state.withLock { state in
                guard state.armed, process.isRunning else { return }
                state.fired = true
                let pid = process.processIdentifier
                kill(pid, SIGTERM)
                DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [self] in
                    self.killIfStillRunning(pid)
                }
            }
        }

        private func killIfStillRunning(_ pid: Int32) {
            state.withLock { if $0.armed { kill(pid, SIGKILL) } }
        }
    }
}
