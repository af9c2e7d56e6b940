extension String {
    /// Whether `scalar` would break a one-line record or a terminal: a control character (C0, DEL, C1) or a line or
    /// paragraph separator (U+2028, U+2029).
    static func breaksLine(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// This text with every character that ``breaksLine(_:)`` escaped (`\n`, `\r`, `\t`, else `\u{…}`), so a log
    /// record or an error line stays one line whatever a client or a file put in it. Plain text comes back as is.
    var escapingLineBreaks: String {
        guard unicodeScalars.contains(where: Self.breaksLine) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where Self.breaksLine(scalar): out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
