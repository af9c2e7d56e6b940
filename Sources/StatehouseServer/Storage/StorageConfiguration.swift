/// `storage.sync` in the configuration: when a journaled action counts as durable.
///
/// - `commit`: each batch of actions is one transaction committed with `fsync` (`synchronous = FULL`) before its
///   answers leave (the output gate); concurrent batches share a commit (group commit).
/// - `interval`: at most one transaction per `intervalMs`; answers do not wait, so a crash loses at most the last
///   interval (like Redis `appendfsync everysec`).
/// - `off`: transactions as in `commit` but `synchronous = OFF` (no `fsync`): the operating system decides when the
///   bytes reach the disk; a process crash loses nothing, a power cut may.
public enum SyncMode: String, Sendable {
    case commit, interval, off
}

/// `"storage"` in the configuration: where and how durable stores are written.
public struct StorageConfiguration: Sendable, Equatable {
    /// The database file, opened as given (absolute, or relative to the working directory); its directory is
    /// created when missing.
    public var path: String
    /// When an action counts as durable (see ``SyncMode``).
    public var sync: SyncMode = .commit
    /// Milliseconds between transactions in `interval` mode; in `interval` and `off` modes also the retry period
    /// after a failed transaction.
    public var intervalMs: Int = 100
    /// A store is snapshotted after this many journaled actions since its last snapshot.
    public var snapshotEveryActions: Int = 1_000
    /// ... or after this many bytes of action JSON journaled since its last snapshot.
    public var snapshotEveryBytes: Int = 4 << 20
    /// Journal rows kept behind a store's newest version (for replay, `?at=` and `/log`); older rows, and the
    /// snapshots they need, are deleted after each snapshot.
    public var retainActions: Int = 10_000
    /// A cap on the database file in bytes (`PRAGMA max_page_count`); past it writes fail with `SQLITE_FULL`.
    /// nil: no cap beyond the disk.
    public var maxBytes: Int? = nil
    /// How long an idempotency key's outcome is kept, seconds (configuration `keyTtlSeconds`). Default 600.
    public var keyTtlSeconds: Int = 600

    public init(path: String) { self.path = path }
}
