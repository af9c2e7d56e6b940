import Synchronization

/// A value behind a lock, shared by reference: for a local value captured by escaping closures (a callback's
/// result), which a `Mutex` cannot be (it is non-copyable). A stored property uses `Mutex` directly.
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
