import Foundation

/// Writes a `Codable` enum value as a Flux Standard Action object: the inverse of ``FluxStandardAction``.
///
/// `case opened` → `{"type":"opened"}`; `case moved(x: 1, y: 2)` → `{"type":"moved","payload":{"x":1,"y":2}}`;
/// `case selected(7)` → `{"type":"selected","payload":7}`; a `String` raw-value enum → `{"type":"<raw value>"}`.
/// Keys are sorted, as in states.
enum FluxStandardActionEncoding {
    /// The FSA JSON of `value`, or nil when it does not encode as an enum case (it is then not sendable as an FSA).
    static func encode<Value: Encodable>(_ value: Value) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value),
            let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return nil }
        if let type = object as? String { return Array("{\"type\":\(JSONText.quoted(type))}".utf8) }
        guard let cases = object as? [String: Any], cases.count == 1, let (type, values) = cases.first else { return nil }
        var out = Array("{\"type\":\(JSONText.quoted(type))".utf8)
        if let payload = payload(values) {
            guard let json = try? JSONSerialization.data(
                withJSONObject: payload, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
            else { return nil }
            out += Array(",\"payload\":".utf8) + Array(json)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The payload of a case's synthesized `{…}`: none when empty, the value itself for a lone `_0`, else the object.
    private static func payload(_ values: Any) -> Any? {
        guard let fields = values as? [String: Any], !fields.isEmpty else { return nil }
        if fields.count == 1, let only = fields["_0"] { return only }
        return fields
    }
}
