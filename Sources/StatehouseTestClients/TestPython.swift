import Foundation

/// Runs the Python helper scripts in `Tests/Python/` with the repository's virtualenv, which
/// has the PyPI `websockets` package (created by `make venv`).
public enum TestPython {
    /// The package root: three levels above this source file
    /// (`<root>/Sources/StatehouseTestClients/TestPython.swift`).
    public static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// `<package root>/.venv/bin/python`.
    public static var interpreter: String {
        packageRoot + "/.venv/bin/python"
    }

    /// Runs `Tests/Python/<script>` with `args` under the venv interpreter.
    ///
    /// - Parameters:
    ///   - script: file name inside `Tests/Python/`, e.g. `"ws_watch.py"`.
    ///   - args: command-line arguments.
    ///   - timeout: hard limit (default 30 s); the child is killed when it passes.
    /// - Returns: the exit code, stdout split into lines (no trailing empty line), and stderr.
    /// - Throws: `TestClientError` if the venv is missing (the message says to run `make venv`),
    ///   the script does not exist, or the run times out.
    public static func run(script: String, args: [String], timeout: Duration = .seconds(30))
        throws -> (status: Int32, stdout: [String], stderr: String) {
        let python = interpreter
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw TestClientError("no Python virtualenv at \(python): run `make venv` in \(packageRoot) "
                                  + "(it creates .venv with the websockets package)")
        }
        let scriptPath = packageRoot + "/Tests/Python/" + script
        guard FileManager.default.fileExists(atPath: scriptPath) else {
            throw TestClientError("no such helper script: \(scriptPath)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONUNBUFFERED"] = "1"
        let result = try Subprocess.run(python, [scriptPath] + args, timeout: timeout, environment: environment)
        var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last == "" { lines.removeLast() }
        return (result.status, lines, result.stderr)
    }
}
