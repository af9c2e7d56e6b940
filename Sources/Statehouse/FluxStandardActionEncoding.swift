import JSONCoding
package import JSON

/// Writes a `Codable` enum value as a Flux Standard Action object: the inverse of ``FluxStandardAction``.
///
/// `case opened` → `{"type":"opened"}`; `case moved(x: 1, y: 2)` → `{"type":"moved","payload":{"x":1,"y":2}}`;
/// `case selected(7)` → `{"type":"selected","payload":7}`; a `String` raw-value enum → `{"type":"<raw value>"}`.
/// Keys are sorted, as in states.
package enum FluxStandardActionEncoding {
    /// The FSA JSON of `value`, or nil when it does not encode as an enum case (it is then not sendable as an FSA).
    package static func encode<Value: Encodable>(_ value: Value) -> [UInt8]? {
        guard let bytes = try? JSONBytesEncoder().encode(value), let synthesized = try? JSONValue(parsing: bytes) else {
            return nil
        }
        return fsa(synthesized: synthesized)
    }

    /// The FSA of an enum case as Swift's synthesized `Codable` writes it (`"raw"`, `{"case":{}}`,
    /// `{"case":{"_0":7}}`, `{"case":{"x":1,"y":2}}`), or nil for any other JSON.
    package static func fsa(synthesized: JSONValue) -> [UInt8]? {
        var out: [UInt8] = []
        out.append(contentsOf: "{\"type\":".utf8)
        if case .string(let type) = synthesized {
            JSONValue.writeString(type, into: &out)
            out.append(UInt8(ascii: "}"))
            return out
        }
        guard case .object(let cases) = synthesized, cases.count == 1, case .object(let fields) = cases.values[0] else {
            return nil
        }
        JSONValue.writeString(cases.keys[0], into: &out)
        if fields.count == 1, fields.keys[0] == "_0" {
            out.append(contentsOf: ",\"payload\":".utf8)
            fields.values[0].write(into: &out, sortedKeys: true)
        } else if fields.count > 0 {
            out.append(contentsOf: ",\"payload\":".utf8)
            JSONValue.object(fields).write(into: &out, sortedKeys: true)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
