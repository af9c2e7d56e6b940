import Dispatch
import JSON
import StatehouseClient
import UVLoop

/// The client commands' one event loop and the blocking calls the commands make on it.
///
/// ## Thread safety
/// The commands run on the main thread and wait (a semaphore) while the loop thread does the I/O; each result is
/// handed over through the semaphore, which orders the write before the read.
enum ClientTransport {
    /// How long one request may take in all (connect, send, answer), ms: above the server's own 10 s default for
    /// `wait=settled`.
    static let requestTimeoutMs = 30_000

    /// A started loop for this process (exits 3 when libuv cannot make one). First SIGINT and SIGTERM are unblocked
    /// (a parent may have left them blocked in the mask the loop thread inherits; Ctrl-C must end `watch`) and SIGPIPE
    /// is ignored (a reader that went away is `EPIPE`, see ``Terminal``).
    static func startLoop() -> EventLoop {
        prepareProcessSignals()
        do {
            let loop = try EventLoop()
            loop.start()
            return loop
        } catch {
            fail("cannot start an event loop: \(error)", .unreachable)
        }
    }

    /// Sends `request` and waits for the answer. A 2xx answer is returned with its body parsed as JSON; anything else
    /// ends the process: an error status exits 1 with the server's `message`, no answer exits 3 with one line.
    static func exchange(
        _ invocation: ClientInvocation, method: String, path: String, body: [UInt8] = [],
        fields: [(name: String, value: String)] = []
    ) -> (response: HTTPExchange.Response, json: JSONValue) {
        let loop = startLoop()
        let request = HTTPExchange.Request(
            method: method, path: path, fields: invocation.authorizationFields + fields, body: body)
        let box = ResultBox<Result<HTTPExchange.Response, HTTPExchange.Failure>>()
        loop.execute {
            HTTPExchange.start(
                on: loop, endpoint: invocation.endpoint, request: request, timeoutMs: requestTimeoutMs
            ) { box.put($0) }
        }
        let response: HTTPExchange.Response
        switch box.take() {
        case .failure(let failure):
            fail(failure.description, .unreachable)
        case .success(let answer):
            response = answer
        }
        guard (200..<300).contains(response.status) else {
            refused(status: response.status, body: response.body)
        }
        guard let json = try? JSONValue(parsing: response.body) else {
            fail("the answer of \(invocation.endpoint) (HTTP \(response.status)) is not JSON; is this a Statehouse server?",
                .unreachable)
        }
        return (response, json)
    }

    /// Exits 1 with the server's `message` and `code` (`{"error":{"code":…,"message":…}}`), or the status alone.
    static func refused(status: Int, body: [UInt8]) -> Never {
        let error = (try? JSONValue(parsing: body))?.objectValue?["error"]?.objectValue
        if let message = error?["message"]?.stringValue {
            let code = error?["code"]?.stringValue.map { " \($0)" } ?? ""
            fail("\(message) (HTTP \(status)\(code))", .refused)
        }
        fail("the server answered HTTP \(status) without a Statehouse error; is --url a Statehouse server?", .refused)
    }
}

/// One value handed from the loop thread to the waiting main thread (`put` once, `take` once).
final class ResultBox<Value>: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private var value: Value?

    /// Stores the value and wakes the waiter (loop thread).
    func put(_ value: Value) {
        self.value = value
        ready.signal()
    }

    /// Waits for the value (main thread).
    func take() -> Value {
        ready.wait()
        return value!
    }
}
