import Foundation

/// Runs blocking test code (a POSIX-socket client, `Server.start()`, a child process) on a thread of its own, so it
/// never occupies one of the few threads of Swift's cooperative pool, which store actors need (the machine may have 2
/// cores: two blocked pool threads deadlocked server tests).
public func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
