import SQLite

/// The database's tables, version 1 (`PRAGMA user_version`). JSON is stored as TEXT so `sqlite3 db 'select action
/// from journal'` reads it; versions and times are INTEGER (times in milliseconds since the Unix epoch).
enum StoreSchema {
    /// The `user_version` this code writes and reads; a newer one is refused.
    static let version = 1

    static let statements = """
        -- One row per durable store: its name, the reducer that serves it, the initial state a PUT gave (NULL: the
        -- reducer's own), its epoch (kept across restarts so clients can resume), and who made it (0 configuration,
        -- 1 PUT).
        CREATE TABLE IF NOT EXISTS stores(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            reducer TEXT NOT NULL,
            initial_state TEXT,
            epoch TEXT NOT NULL,
            created_by INTEGER NOT NULL,
            created_ms INTEGER NOT NULL
        );
        -- Every reduced action of a store in reduce order, keyed by the version after it; origin 0 external,
        -- 1 effect, 2 reset (action is then the state restored). Small rows, read in key order: WITHOUT ROWID.
        CREATE TABLE IF NOT EXISTS journal(
            store_id INTEGER NOT NULL,
            version INTEGER NOT NULL,
            origin INTEGER NOT NULL,
            action TEXT NOT NULL,
            time_ms INTEGER NOT NULL,
            PRIMARY KEY(store_id, version)
        ) WITHOUT ROWID;
        -- A store's whole state JSON at a version: recovery starts from one and replays the journal after it.
        -- States can be large, so this keeps a rowid (large rows do not belong in a WITHOUT ROWID b-tree).
        CREATE TABLE IF NOT EXISTS snapshots(
            store_id INTEGER NOT NULL,
            version INTEGER NOT NULL,
            state TEXT NOT NULL,
            time_ms INTEGER NOT NULL,
            PRIMARY KEY(store_id, version)
        );
        -- Idempotency keys: the first request's body fingerprint and the version and state it was answered with,
        -- until expires_ms.
        CREATE TABLE IF NOT EXISTS idempotency(
            store_id INTEGER NOT NULL,
            key TEXT NOT NULL,
            fingerprint INTEGER NOT NULL,
            version INTEGER NOT NULL,
            state TEXT NOT NULL,
            expires_ms INTEGER NOT NULL,
            PRIMARY KEY(store_id, key)
        );
        """

    /// Gives every store a new random epoch (16 hex digits): after an unclean stop in `interval`/`off` mode, and in a
    /// backup copy, where the versions a client holds may since name other states.
    static func renewEpochs(_ connection: Connection) throws(SQLiteError) {
        try connection.execute("UPDATE stores SET epoch = lower(hex(randomblob(8)))")
    }
}
