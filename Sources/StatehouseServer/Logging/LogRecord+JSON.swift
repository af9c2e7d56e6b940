import Foundation
import JSON

extension LogRecord {
    /// The record as one JSON object (RFC 8259) without a line feed:
    ///
    /// ```json
    /// {"time":"2026-12-01T04:00:00.120Z","level":"info","message":"http GET /stores/a → 200","conn":"7","request_id":"k2x9-1"}
    /// ```
    ///
    /// `time` is `time` in RFC 3339 (§5.6) UTC with milliseconds; strings are escaped by the project's one JSON string
    /// escaper (``JSON/JSONStringEscaper``), so any message or value stays one line. A metadata key named `time`,
    /// `level` or `message` is left out (the record's own members win).
    func jsonLine(at time: Date) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96 + message.utf8.count)
        bytes += Array(#"{"time":""#.utf8)
        bytes += Self.rfc3339Milliseconds(time)
        bytes += Array(#"","level":""#.utf8)
        bytes += Array(level.description.utf8)
        bytes += Array(#"","message":"#.utf8)
        JSONStringEscaper.write(message, into: &bytes)
        for (key, value) in metadata where key != "time" && key != "level" && key != "message" {
            bytes.append(UInt8(ascii: ","))
            JSONStringEscaper.write(key, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONStringEscaper.write(value, into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` (RFC 3339 §5.6, UTC), e.g. `2026-12-01T04:00:00.120Z`.
    static func rfc3339Milliseconds(_ time: Date) -> [UInt8] {
        let totalMs = Int64((time.timeIntervalSince1970 * 1000).rounded())  // to the nearest ms: 0.999 s is 998.99… ms
        var seconds = time_t(totalMs >= 0 ? totalMs / 1000 : (totalMs - 999) / 1000)
        let milliseconds = Int(totalMs - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int, _ count: Int) -> [UInt8] {
            var out = [UInt8](repeating: UInt8(ascii: "0"), count: count)
            var rest = value
            for index in stride(from: count - 1, through: 0, by: -1) {
                out[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            return out
        }
        var out = digits(Int(parts.tm_year) + 1900, 4)
        out += [UInt8(ascii: "-")] + digits(Int(parts.tm_mon) + 1, 2) + [UInt8(ascii: "-")] + digits(Int(parts.tm_mday), 2)
        out += [UInt8(ascii: "T")] + digits(Int(parts.tm_hour), 2) + [UInt8(ascii: ":")] + digits(Int(parts.tm_min), 2)
        out += [UInt8(ascii: ":")] + digits(Int(parts.tm_sec), 2) + [UInt8(ascii: ".")] + digits(milliseconds, 3)
        out.append(UInt8(ascii: "Z"))
        return out
    }
}
