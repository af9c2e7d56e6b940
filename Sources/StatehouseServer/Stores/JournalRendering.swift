import Statehouse
import Foundation
import JSON

/// Journal rows as `/log` shows them: one JSON object per line,
/// `{"version":N,"origin":"external"|"effect","time":"2026-12-02T00:30:00.123Z","action":{FSA}}`, or for a reset
/// `{"version":N,"origin":"reset","time":…,"state":{…}}`.
enum JournalRendering {
    static func line(_ row: JournalRow, into out: inout [UInt8]) {
        let origin = row.origin.name
        out.appendLiteral("{\"version\":")
        out.appendDecimal(row.version)
        out.appendLiteral(",\"origin\":\"")
        out += Array(origin.utf8)
        out.appendLiteral("\",\"time\":\"")
        out += Array(timestamp(row.timeMs).utf8)
        if row.origin == .reset {
            out.appendLiteral("\",\"state\":")
            out += row.action
        } else {
            out.appendLiteral("\",\"action\":")
            out += (try? JSONValue(parsing: row.action)).flatMap(FluxStandardActionEncoding.fsa(synthesized:)) ?? row.action
        }
        out.appendLiteral("}\n")
    }

    /// RFC 3339 UTC with milliseconds.
    static func timestamp(_ ms: Int64) -> String {
        var seconds = time_t(ms / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec, Int(ms % 1000))
    }
}
