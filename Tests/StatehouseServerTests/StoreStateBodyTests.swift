import JSON
@testable import StatehouseServer
import Testing

/// The store-state envelope (``StoreStateBody``, also behind ``WireMessage/storeState(store:_:resumed:)``): the
/// bytes written in place equal the envelope spelled out field by field, for names that need escapes and versions
/// of every width.
struct StoreStateBodyTests {
    @Test(arguments: ["counter", "a.b-c_9", "with \"quote\"", "back\\slash", "tab\there", "é", ""])
    func theEnvelopeFieldByField(store: String) {
        for version: UInt64 in [0, 9, 10, 99, 100, 12_345, UInt64.max] {
            for state in ["{\"count\":1}", "", "null"] {
                for resumed: Bool? in [nil, true, false] {
                    var name: [UInt8] = []
                    JSONValue.writeString(store, into: &name)
                    let expected = "{\"store\":" + String(decoding: name, as: UTF8.self) + ",\"version\":\(version)"
                        + (resumed.map { ",\"resumed\":\($0)" } ?? "") + ",\"state\":" + state + "}"
                    let reply = StateReply(version: version, state: Array(state.utf8))
                    let body = StoreStateBody(store: store, reply, resumed: resumed)
                    var written = [UInt8](repeating: 0, count: body.byteCount)
                    written.withUnsafeMutableBufferPointer { body.write(to: $0.baseAddress!) }
                    #expect(String(decoding: written, as: UTF8.self) == expected, "\(store) \(version)")
                    #expect(WireMessage.storeState(store: store, reply, resumed: resumed) == written)
                }
            }
        }
    }
}
