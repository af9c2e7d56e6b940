/// One write queued to the ``StoreWriter``; `done` runs on the writer thread after the transaction that holds it
/// committed (nil error, or the new store's id) or failed for good.
enum WriteRequest: Sendable {
    case createStore(NewStore, done: @Sendable (Result<Int64, StorageError>) -> Void)
    case deleteStore(id: Int64, done: @Sendable (StorageError?) -> Void)
    case append(JournalBatch, done: @Sendable (StorageError?) -> Void)

    /// Reports the outcome: `error`, or success (`createdID` for a created store).
    func complete(_ error: StorageError?, createdID: Int64) {
        switch self {
        case .createStore(_, let done): done(error.map { .failure($0) } ?? .success(createdID))
        case .deleteStore(_, let done), .append(_, let done): done(error)
        }
    }
}

/// A store row to insert, with the state JSON of its version-0 snapshot.
struct NewStore: Sendable {
    let name: String
    let reducer: String
    let initialState: [UInt8]?
    let epoch: String
    let createdBy: StoreCreator
    let state0: [UInt8]
}

/// A request the writer took from the queue, with what its transaction produced: kept as is for a retry, so a
/// batch's `encode` runs once.
struct PendingWrite {
    let request: WriteRequest
    var encoded: EncodedBatch?
    var createdID: Int64 = 0
    /// This request alone failed inside a transaction that committed (e.g. a store name already taken).
    var refusal: StorageError?

    init(_ request: WriteRequest) { self.request = request }
}

/// Rows and action bytes journaled for a store since its last snapshot.
struct SnapshotCounter {
    var rows = 0
    var bytes = 0
    /// The store's newest version written (journal or snapshot): each batch must continue from it.
    var newest: UInt64 = 0
}
