import Synchronization

/// A value behind a lock (the standard library's `Mutex`: no system call unless contended).
///
/// ## Thread safety
/// Sendable: every access holds the lock.
final class LockedValue<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T {
        mutex.withLock { body(&$0) }
    }
}
