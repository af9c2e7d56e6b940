import HTTP1

/// `{"store":…,"version":…,"state":…}` (``WireMessage/storeState(store:_:resumed:)``'s bytes, without `resumed`)
/// written straight into a response's buffer: the state's bytes are copied once, from the store's reply into the
/// socket's buffer, with no body array in between (`scripts/check-hot-path`: about 960 instructions less per `POST`).
///
/// ## Thread safety
/// A value type, used on the loop that writes the response.
struct StoreStateBody: HTTPBodyWriter {
    private let store: String
    /// Whether `store` needs no JSON escape (store names are `[A-Za-z0-9._-]`, so this is the usual case); else
    /// ``escapedStore`` holds its quoted form.
    private let escapedStore: [UInt8]?
    private let version: UInt64
    private let state: [UInt8]
    let byteCount: Int

    private static let head: StaticString = "{\"store\":"
    private static let versionKey: StaticString = ",\"version\":"
    private static let stateKey: StaticString = ",\"state\":"

    init(store: String, _ reply: StateReply) {
        self.store = store
        version = reply.version
        state = reply.state
        let plain = store.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        escapedStore = plain ? nil : Array(JSONText.quoted(store).utf8)
        let nameCount = escapedStore?.count ?? store.utf8.count + 2
        byteCount = Self.head.utf8CodeUnitCount + nameCount + Self.versionKey.utf8CodeUnitCount
            + HTTPBodyCursor.decimalDigitCount(version) + Self.stateKey.utf8CodeUnitCount + state.count + 1
    }

    func write(to start: UnsafeMutablePointer<UInt8>) {
        var cursor = HTTPBodyCursor(start)
        cursor.write(Self.head)
        if let escapedStore {
            cursor.write(escapedStore)
        } else {
            var name = store
            cursor.write(UInt8(ascii: "\""))
            name.withUTF8 { cursor.write($0) }
            cursor.write(UInt8(ascii: "\""))
        }
        cursor.write(Self.versionKey)
        cursor.writeDecimal(version)
        cursor.write(Self.stateKey)
        cursor.write(state)
        cursor.write(UInt8(ascii: "}"))
        precondition(cursor.position - start == byteCount, "store state body miscounted")
    }
}
