// Public: `withLock` is inlinable (specialized and inlined at every use, as `Mutex.withLock` is), so the mutex's
// type and functions must be visible where it is inlined.
#if canImport(Glibc)
public import Glibc
#elseif canImport(Darwin)
public import Darwin
#endif

/// A value behind a lock: the project's one lock type (`Atomic` from Synchronization serves single words).
///
/// A `pthread_mutex_t` and the value in one heap block (a `ManagedBuffer`: the value as header, the mutex as its
/// single element). A struct: a copy shares the block, so it can be captured by escaping closures.
///
/// Why not `Synchronization.Mutex`: on Linux its lock and unlock run inside the precompiled Synchronization library
/// (a futex), which ThreadSanitizer does not see, so `make sanitize` reported every access it guards as a data race
/// (56 reports when the loops' job queues, the fan-out and the registry used it). ThreadSanitizer intercepts
/// `pthread_mutex_lock`, and uncontended it is as cheap (`make hotpath`, BENCHMARKS.md).
///
/// ## Thread safety
/// Sendable when `Value` is: every access to the value holds the mutex. `withLock` must not be re-entered for the same
/// lock on one thread (the mutex is not recursive).
public struct Locked<Value> {
    @usableFromInline
    final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        // The value (the header) is destroyed by ManagedBuffer itself; the mutex (an element) is not.
        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }

    @usableFromInline
    let storage: Storage

    /// A lock guarding `value`.
    public init(_ value: Value) {
        let storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            _ = pthread_mutex_init(mutex, nil)
        }
        self.storage = storage
    }

    /// Runs `body` with the lock held and the value to read or change; returns what `body` returns.
    /// - Throws: what `body` throws (the lock is released first).
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
            Self.holding(mutex) { () throws(Failure) -> Result in try body(&value.pointee) }
        }.get()
    }

    /// `body`'s outcome, run with `mutex` held. A `Swift.Result`, because ManagedBuffer's closures only rethrow
    /// untyped errors (free when `Failure` is `Never`).
    @inlinable
    static func holding<Result, Failure: Error>(
        _ mutex: UnsafeMutablePointer<pthread_mutex_t>, _ body: () throws(Failure) -> Result
    ) -> Swift.Result<Result, Failure> {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        do throws(Failure) {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }
}

extension Locked: @unchecked Sendable where Value: Sendable {}

extension Locked where Value == Void {
    /// A plain lock for state kept elsewhere (`Locked(())`): runs `body` with the mutex held; returns what it returns.
    /// No value is handed over: ThreadSanitizer takes an `inout` of the empty value for a write at the block's start,
    /// where every `withLock` reads the object's header, and reported races that were not there.
    /// - Throws: what `body` throws (the lock is released first).
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try storage.withUnsafeMutablePointerToElements { mutex in Self.holding(mutex, body) }.get()
    }
}
