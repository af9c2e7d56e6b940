@testable import StatehouseServer
import Testing

/// The query of a request-target as parameters (RFC 3986 §3.4, form-style `+` and `%XX`).
@Suite struct QueryParametersTests {
    @Test func pairsAreSplitAndDecoded() {
        let query = QueryParameters("since=1&epoch=a+b%2Bc&flag&=empty&since=2&access_token=s%33cret&bad=%ZZ&raw=%FF")
        #expect(query["since"] == "2")  // the last of a repeated name
        #expect(query["epoch"] == "a b+c")
        #expect(query["flag"] == "")
        #expect(query[""] == "empty")
        #expect(query["bad"] == "%ZZ")  // escapes that do not decode are kept as they came
        #expect(query["raw"] == "%FF")  // as are escapes of bytes that are not UTF-8
        #expect(query.accessToken == "s3cret" && query["access_token"] == nil)
        #expect(query.unknown(["since"]) == ["", "bad", "epoch", "flag", "raw"])
    }

    /// Found by the wire fuzz target: `&` and `=` followed by a combining mark (U+0301) were one Character with it, so
    /// the pair was not split there.
    @Test func delimitersFollowedByACombiningMarkStillSplit() {
        let query = QueryParameters("since=1&\u{0301}epoch=x&a=\u{0301}b")
        #expect(query["since"] == "1")
        #expect(query["\u{0301}epoch"] == "x")
        #expect(query["a"] == "\u{0301}b")
    }
}
