import HTTP1

/// The `return` preference of a request's `Prefer` fields (RFC 7240 §4.2): `return=minimal` asks for an answer
/// without the resource's representation (here: a `POST …/actions` answer without the state), `return=representation`
/// (or none) for the usual one.
enum ReturnPreference: Equatable {
    case representation
    case minimal

    /// The preference in `fields`: every `Prefer` field, each a comma-separated list of `name[=value]` preferences
    /// with optional `;` parameters (RFC 7240 §2); names and the `minimal` value compared without case, a quoted
    /// value unquoted. The first `return` preference counts (§2: a preference given twice takes the first).
    init(_ fields: HTTPFields) {
        self = .representation
        for field in fields.values("Prefer") {
            for preference in field.split(separator: ",") {
                let token = preference.split(separator: ";", maxSplits: 1).first ?? ""
                let parts = token.split(separator: "=", maxSplits: 1)
                guard parts.count == 2,
                    parts[0].trimmingSpaces().lowercased() == "return"
                else { continue }
                var value = parts[1].trimmingSpaces()
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
                self = value.lowercased() == "minimal" ? .minimal : .representation
                return
            }
        }
    }

    /// `Preference-Applied: return=minimal` (RFC 7240 §3) when honoured.
    var appliedFields: [HTTPField] {
        self == .minimal ? [HTTPField(name: "Preference-Applied", value: "return=minimal")] : []
    }
}

extension Substring {
    /// Without leading and trailing spaces and horizontal tabs (RFC 9110 §5.6.3 `OWS`).
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
