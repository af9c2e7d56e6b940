import HTTP1

/// `{"store":…,"version":…[,"resumed":…],"state":…}`, the one writer of this envelope: straight into a
/// response's buffer for `POST …/actions` (the state's bytes copied once, from the store's reply into the socket's
/// buffer, with no body array in between; `scripts/check-hot-path`: about 960 instructions less per `POST`), and
/// into an array for ``WireMessage/storeState(store:_:resumed:)``.
///
/// ## Thread safety
/// A value type, used on the loop that writes the response.
struct StoreStateBody: HTTPBodyWriter {
    private let store: String
    /// Whether `store` needs no JSON escape (store names are `[A-Za-z0-9._-]`, so this is the usual case); else
    /// ``escapedStore`` holds its quoted form.
    private let escapedStore: [UInt8]?
    private let version: UInt64
    private let resumed: Bool?
    private let state: [UInt8]
    let byteCount: Int

    private static let head: StaticString = "{\"store\":"
    private static let versionKey: StaticString = ",\"version\":"
    private static let stateKey: StaticString = ",\"state\":"
    private static let resumedTrue: StaticString = ",\"resumed\":true"
    private static let resumedFalse: StaticString = ",\"resumed\":false"

    /// - Parameter resumed: `"resumed"`'s value, left out when nil.
    init(store: String, _ reply: StateReply, resumed: Bool? = nil) {
        self.store = store
        self.resumed = resumed
        version = reply.version
        state = reply.state
        let plain = store.utf8.allSatisfy { byte in
            byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
        }
        escapedStore = plain ? nil : Array(JSONText.quoted(store).utf8)
        let nameCount = escapedStore?.count ?? store.utf8.count + 2
        byteCount = Self.head.utf8CodeUnitCount + nameCount + Self.versionKey.utf8CodeUnitCount
            + HTTPBodyCursor.decimalDigitCount(version) + Self.stateKey.utf8CodeUnitCount + state.count + 1
            + (resumed.map { ($0 ? Self.resumedTrue : Self.resumedFalse).utf8CodeUnitCount } ?? 0)
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
        if let resumed { cursor.write(resumed ? Self.resumedTrue : Self.resumedFalse) }
        cursor.write(Self.stateKey)
        cursor.write(state)
        cursor.write(UInt8(ascii: "}"))
        precondition(cursor.position - start == byteCount, "store state body miscounted")
    }
}
