import SQLite

extension StoreDatabase {
    /// Queues a new store: its row and its snapshot at version 0 (`state0`), in one transaction; `done` gets the
    /// new store's id, or the error (e.g. `SQLITE_CONSTRAINT_UNIQUE` for a name already stored).
    func createStore(name: String, reducer: String, initialState: [UInt8]?, epoch: String, createdBy: StoreCreator,
                     state0: [UInt8], done: @escaping @Sendable (Result<Int64, StorageError>) -> Void) {
        let store = NewStore(name: name, reducer: reducer, initialState: initialState, epoch: epoch,
                             createdBy: createdBy, state0: state0)
        enqueue(.createStore(store, done: done), orFail: { done(.failure($0)) })
    }

    /// Queues the deletion of a store's row, journal, snapshots and keys.
    func deleteStore(id: Int64, done: @escaping @Sendable (StorageError?) -> Void) {
        enqueue(.deleteStore(id: id, done: done), orFail: done)
    }

    /// Queues one batch of a store's actions (see ``StoreWriter`` for when `done` runs per sync mode).
    func append(_ batch: JournalBatch, done: @escaping @Sendable (StorageError?) -> Void) {
        enqueue(.append(batch, done: done), orFail: done)
    }

    /// Sets the handler called on the writer thread when writing starts failing (the error) or works again (nil),
    /// in `interval` and `off` modes. Set it once, before serving.
    func onHealthChange(_ handler: @escaping @Sendable (StorageError?) -> Void) {
        writer?.onHealthChange(handler)
    }

    /// Changes the size cap (`maxBytes`, nil: none) from the next transaction on: an operator's way out of a full
    /// database short of a restart; tests end a disk-full condition with it.
    func changeMaxBytes(_ maxBytes: Int?) {
        guard let writer else { return }
        let pages: Int
        if let maxBytes {
            pages = (try? readers.read("page_size") { (connection) throws(SQLiteError) -> Int in
                try StoreDatabase.maxPageCount(maxBytes, connection)
            }) ?? max(1, maxBytes / 4096)
        } else {
            pages = Int(Int32.max)  // SQLite clamps it to its own limit
        }
        writer.changeMaxPageCount(pages)
    }

    private func enqueue(_ request: WriteRequest, orFail fail: (StorageError) -> Void) {
        guard let writer else {
            return fail(StorageError(path: path, operation: "write", message: "the database is open read-only"))
        }
        writer.enqueue(request)
    }
}
