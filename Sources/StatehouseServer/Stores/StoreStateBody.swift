import HTTP1

/// `{"store":…,"version":…,"state":…}` (``WireMessage/storeState(store:_:resumed:)``'s bytes, without `resumed`)
/// written straight into a response's buffer: the state's bytes are copied once, from the store's reply into the
/// socket's buffer, with no body array in between (callgrind: about 700 instructions less per `POST`).
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
            + Self.digitCount(version) + Self.stateKey.utf8CodeUnitCount + state.count + 1
    }

    func write(to start: UnsafeMutablePointer<UInt8>) {
        var cursor = Self.copy(Self.head, to: start)
        if let escapedStore {
            cursor = escapedStore.withUnsafeBufferPointer { Self.copy($0, to: cursor) }
        } else {
            cursor.initialize(to: UInt8(ascii: "\""))
            var name = store
            cursor = name.withUTF8 { Self.copy($0, to: cursor + 1) }
            cursor.initialize(to: UInt8(ascii: "\""))
            cursor += 1
        }
        cursor = Self.copy(Self.versionKey, to: cursor)
        let digits = Self.digitCount(version)
        var rest = version
        for index in stride(from: digits - 1, through: 0, by: -1) {
            (cursor + index).initialize(to: UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        }
        cursor += digits
        cursor = Self.copy(Self.stateKey, to: cursor)
        cursor = state.withUnsafeBufferPointer { Self.copy($0, to: cursor) }
        cursor.initialize(to: UInt8(ascii: "}"))
        precondition(cursor + 1 - start == byteCount, "store state body miscounted")
    }

    private static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }

    private static func copy(_ text: StaticString, to cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        cursor.initialize(from: text.utf8Start, count: text.utf8CodeUnitCount)
        return cursor + text.utf8CodeUnitCount
    }

    private static func copy(_ bytes: UnsafeBufferPointer<UInt8>, to cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        guard let source = bytes.baseAddress else { return cursor }
        cursor.initialize(from: source, count: bytes.count)
        return cursor + bytes.count
    }
}
