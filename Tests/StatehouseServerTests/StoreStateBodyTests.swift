@testable import StatehouseServer
import Testing

/// The `POST` answer's body written in place (``StoreStateBody``) is byte for byte ``WireMessage``'s envelope.
struct StoreStateBodyTests {
    @Test(arguments: ["counter", "a.b-c_9", "with \"quote\"", "back\\slash", "tab\there", "é", ""])
    func theSameBytesAsTheEnvelope(store: String) {
        for version: UInt64 in [0, 9, 10, 99, 100, 12_345, UInt64.max] {
            for state in [Array("{\"count\":1}".utf8), [], Array("null".utf8)] {
                let reply = StateReply(version: version, state: state)
                let body = StoreStateBody(store: store, reply)
                var written = [UInt8](repeating: 0, count: body.byteCount)
                written.withUnsafeMutableBufferPointer { body.write(to: $0.baseAddress!) }
                #expect(written == WireMessage.storeState(store: store, reply), "\(store) \(version)")
            }
        }
    }
}
