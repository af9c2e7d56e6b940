import Testing

@testable import StatehouseServer

/// The byte builders behind the envelopes, and the envelopes' exact text.
struct EnvelopeTests {
    @Test(arguments: [UInt64(0), 7, 9, 10, 99, 100, 123_456_789, UInt64.max])
    func decimalDigitsMatchDescription(value: UInt64) {
        var out: [UInt8] = []
        out.appendDecimal(value)
        #expect(String(decoding: out, as: UTF8.self) == String(value))
    }

    @Test func stringsAreQuotedAndEscapedAsJSONText() {
        let cases: [(String, String)] = [
            ("counter", #""counter""#), ("", #""""#), ("a\"b", #""a\"b""#), ("back\\slash", #""back\\slash""#),
            ("line\nfeed", #""line\nfeed""#), ("tab\t", #""tab\t""#), ("\u{1}", #""\u0001""#), ("\u{8}\u{C}", #""\b\f""#),
            ("café ☃ /", #""café ☃ /""#),
        ]
        for (text, quoted) in cases {
            #expect(JSONText.quoted(text) == quoted)
        }
    }

    @Test func envelopesHaveTheProtocolsKeyOrder() {
        let reply = StateReply(version: 12, state: Array(#"{"count":3}"#.utf8))
        #expect(String(decoding: WireMessage.storeState(store: "c", reply), as: UTF8.self)
            == #"{"store":"c","version":12,"state":{"count":3}}"#)
        #expect(String(decoding: WireMessage.storeState(store: "c", reply, resumed: false), as: UTF8.self)
            == #"{"store":"c","version":12,"resumed":false,"state":{"count":3}}"#)
        #expect(String(decoding: WireMessage.ack(ref: "r\"1", version: 3), as: UTF8.self)
            == #"{"type":"ack","ref":"r\"1","version":3}"#)
        #expect(String(decoding: WireMessage.ack(ref: nil, version: 0), as: UTF8.self) == #"{"type":"ack","version":0}"#)
        let state = WireMessage.state(store: "c", epoch: "ab", version: 2, path: nil, resumed: true, state: Array("1".utf8))
        #expect(String(decoding: state.bytes, as: UTF8.self)
            == #"{"type":"state","store":"c","epoch":"ab","version":2,"resumed":true,"state":1}"#)
    }
}
