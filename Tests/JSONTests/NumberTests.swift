import JSON
import Testing

@Suite struct NumberTests {
    @Test(arguments: [
        "0", "-0", "1.0", "1.50", "1e400", "-1E-400", "1e+2", "123456789012345678901234567890", "0.000001", "2.5E07",
    ])
    func numberTextRoundTrips(numberText: String) throws {
        let value = try json("[\(numberText)]")
        #expect(text(value) == "[\(numberText)]")
        #expect(value.arrayValue?.first?.numberValue?.text == numberText)
    }

    @Test func hugeExponentIsKeptAsText() throws {
        let number = try #require(try json("1e400").numberValue)
        #expect(number.text == "1e400")
        #expect(number.doubleValue == .infinity)
        #expect(number.intValue == nil)
    }

    @Test(arguments: [
        ("1", "1.0"), ("100", "1e2"), ("100", "1E+2"), ("0", "-0"), ("0", "0.000e5"), ("0.1", "0.10"),
        ("0.05", "5e-2"), ("-12.5", "-125e-1"), ("1e400", "10e399"), ("123456789012345678901234567890", "1.2345678901234567890123456789e29"),
    ])
    func numericallyEqualTextsAreEqual(lhs: String, rhs: String) throws {
        let a = try #require(JSONNumber(text: lhs))
        let b = try #require(JSONNumber(text: rhs))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }

    @Test(arguments: [
        ("1", "2"), ("1", "-1"), ("10", "1"), ("0.1", "0.01"), ("1e400", "1e401"),
        ("123456789012345678901234567890", "123456789012345678901234567891"), ("9007199254740993", "9007199254740992"),
    ])
    func differentValuesDiffer(lhs: String, rhs: String) throws {
        #expect(try #require(JSONNumber(text: lhs)) != (try #require(JSONNumber(text: rhs))))
    }

    @Test(arguments: ["", "01", "+1", ".5", "5.", "1e", "-", "NaN", "Infinity", " 1", "1 ", "0x10", "1_000"])
    func invalidTextIsRejected(candidate: String) {
        #expect(JSONNumber(text: candidate) == nil)
    }

    @Test func conversions() throws {
        #expect(JSONNumber(42).text == "42")
        #expect(JSONNumber(-7).text == "-7")
        #expect(JSONNumber(0.5).text == "0.5")
        #expect(JSONNumber(1.0) == JSONNumber(1))
        #expect(JSONNumber(text: JSONNumber(1e300).text) != nil)
        #expect(JSONNumber(text: JSONNumber(1e-7).text) != nil)
        #expect(JSONNumber(text: "1.0")?.intValue == 1)
        #expect(JSONNumber(text: "1e2")?.intValue == 100)
        #expect(JSONNumber(text: "1.5")?.intValue == nil)
        #expect(JSONNumber(text: "-9223372036854775808")?.intValue == Int.min)
        #expect(JSONNumber(text: "9223372036854775808")?.intValue == nil)
    }

    @Test func valuesUseNumericEquality() throws {
        #expect(try json(#"{"a":[1.0,2e0]}"#) == json(#"{"a":[1,2]}"#))
        let set: Set<JSONValue> = [try json("1.0"), try json("1"), try json("100"), try json("1e2")]
        #expect(set.count == 2)
    }
}
