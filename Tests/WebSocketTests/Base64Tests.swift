import Foundation
import Testing
@testable import WebSocket

/// `Base64` (libcrypto's EVP_EncodeBlock / EVP_DecodeBlock behind a strict shape check): RFC 4648 §10's vectors,
/// agreement with Foundation, and the malformed inputs a `Sec-WebSocket-Key` must not get through with.
@Suite struct Base64Tests {
    /// RFC 4648 §10.
    static let vectors: [(plain: String, encoded: String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test func encodesTheRFCVectors() {
        for (plain, encoded) in Self.vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded, "\(plain)")
        }
    }

    @Test func decodesTheRFCVectorsWithoutThePaddingBytes() {
        for (plain, encoded) in Self.vectors {
            #expect(Base64.decode(Substring(encoded)) == Array(plain.utf8), "\(encoded)")
        }
    }

    @Test func agreesWithFoundationOnEveryLengthUpTo64() {
        var generator = SystemRandomNumberGenerator()
        for count in 0...64 {
            let bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let encoded = Base64.encode(bytes)
            #expect(encoded == Data(bytes).base64EncodedString())
            #expect(Base64.decode(Substring(encoded)) == bytes)
        }
        let all = Array(0...255).map(UInt8.init)
        #expect(Base64.encode(all) == Data(all).base64EncodedString())
        #expect(Base64.decode(Substring(Base64.encode(all))) == all)
    }

    @Test func theHandshakeKeyDecodesTo16Bytes() {
        #expect(Base64.decode("dGhlIHNhbXBsZSBub25jZQ==") == Array("the sample nonce".utf8))
    }

    /// Each of these EVP_DecodeBlock alone accepts (whitespace trimmed, `=` taken as a zero sextet anywhere) or
    /// would count wrong; the strict decoder refuses them all.
    @Test(arguments: [
        "Zg", "Zg=", "Zm9vY", "Z===", "====", "=Zg=", "Zg=a", "Z=g=", "Zg==Zg==", " Zm9v", "Zm9v ", "Zm9v\n", "\tZm9v",
        "Zm9v\r\n", "Zm 9", "Zm9v-_==", "Zm9v\0\0\0\0", "Zm9vYg=\0", "dGhlIHNhbXBsZSBub25jZQ=!", "not base64 at all!!!",
    ])
    func refusesMalformedText(text: String) {
        #expect(Base64.decode(Substring(text)) == nil)
    }

    /// The opening handshake's shape check says yes exactly when the decoder gives 16 bytes: for every length of
    /// random bytes up to 20 (so 15, 16 and 17 bytes, with one and two `=`), and for each malformed text above.
    @Test func sixteenByteShapeAgreesWithTheDecoder() {
        var generator = SystemRandomNumberGenerator()
        for count in 0...20 {
            for _ in 0..<8 {
                let encoded = Base64.encode((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
                #expect(Base64.decodesTo16Bytes(Substring(encoded)) == (count == 16), "\(encoded)")
                #expect(Base64.decodesTo16Bytes(Substring(encoded)) == (Base64.decode(Substring(encoded))?.count == 16))
            }
        }
        for text in [
            "dGhlIHNhbXBsZSBub25jZQ=!", "dGhlIHNhbXBsZSBub25jZQ=\n", " dGhlIHNhbXBsZSBub25jZQ==", "dGhl IHNhbXBsZSBub25jZQ=",
            "dGhlIHNhbXBsZSBub25jZ===", "=GhlIHNhbXBsZSBub25jZQ==", "dGhlIHNhbXBsZSBub25jZé=", "dGhlIHNhbXBsZSBub25jZQ-_",
        ] {
            #expect(!Base64.decodesTo16Bytes(Substring(text)), "\(text)")
            #expect(Base64.decode(Substring(text))?.count != 16, "\(text)")
        }
    }

    @Test func decodesASubstringInPlace() {
        let field = "  Zm9vYmFy  "
        let trimmed = field.dropFirst(2).dropLast(2)
        #expect(Base64.decode(trimmed) == Array("foobar".utf8))
    }
}
