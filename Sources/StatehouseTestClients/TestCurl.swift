/// Runs the system `curl` binary, for tests that want a real third-party HTTP client.
public enum TestCurl {
    /// Path of the curl binary used.
    public static let executable = "/usr/bin/curl"

    /// Runs `/usr/bin/curl -sS --noproxy '*' <args>` and waits for it.
    ///
    /// `--noproxy '*'` keeps a proxy from the environment (`http_proxy`) away from 127.0.0.1.
    /// - Parameters:
    ///   - args: curl arguments, e.g. `["-X", "POST", "--data-binary", "{}", "http://127.0.0.1:8080/x"]`.
    ///   - timeout: hard limit (default 10 s); the child is killed when it passes.
    /// - Returns: curl's exit code (0 = success, 7 = connect failed, 22 with `-f` = HTTP ≥ 400),
    ///   its stdout and its stderr, both UTF-8 decoded.
    /// - Throws: `TestClientError` if curl is missing, cannot start, or times out.
    public static func run(_ args: [String], timeout: Duration = .seconds(10))
        throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try Subprocess.run(executable, ["-sS", "--noproxy", "*"] + args, timeout: timeout)
        return (result.status, result.stdout, result.stderr)
    }
}
