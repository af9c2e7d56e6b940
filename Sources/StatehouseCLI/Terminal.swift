import Foundation
import JSON

/// Where the client commands write: standard output as a terminal (readable) or not (one compact JSON document per
/// line), and whether to colour it.
///
/// ## Thread safety
/// A value type; writes go straight to file descriptor 1 with `write(2)` (no buffering), from any one thread at a time.
struct Terminal: Sendable {
    /// Standard output is a terminal (`isatty(1)`).
    let isTTY: Bool
    /// ANSI colour: on a terminal, unless `NO_COLOR` is set to anything non-empty (no-color.org).
    let colour: Bool

    /// Looks at file descriptor 1 and `NO_COLOR`.
    static func current() -> Terminal {
        let tty = isatty(1) == 1
        let noColour = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        return Terminal(isTTY: tty, colour: tty && !noColour)
    }

    /// `text` in bold cyan when colouring (a header line such as `counter v12`); its control characters escaped.
    func header(_ text: String) -> String {
        colour ? "\u{1B}[1;36m\(text.forTerminal)\u{1B}[0m" : text.forTerminal
    }

    /// `text` dimmed when colouring (a note beside a header).
    func dim(_ text: String) -> String {
        colour ? "\u{1B}[2m\(text)\u{1B}[0m" : text
    }

    /// Writes one JSON document: compact on one line when piped, else pretty-printed.
    func document(_ value: JSONValue) {
        isTTY ? write(PrettyJSON.render(value) + "\n") : line(value.serialized())
    }

    /// Writes `bytes` and a line feed.
    func line(_ bytes: [UInt8]) { Self.writeAll(bytes + [0x0A]) }

    /// Writes `text` as it is.
    func write(_ text: String) { Self.writeAll(Array(text.utf8)) }

    /// `write(2)` until all is written; a reader that went away (`EPIPE`, e.g. `| head -1`) ends the process (0).
    private static func writeAll(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(1, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                exit(errno == EPIPE ? 0 : ClientExit.unreachable.rawValue)
            }
            offset += written
        }
    }
}

/// JSON for people: two-space indentation, `"key": value`, empty containers as `{}` and `[]`.
enum PrettyJSON {
    /// `value` pretty-printed (no trailing line feed).
    static func render(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: "", into: &out)
        return out
    }

    private static func write(_ value: JSONValue, indent: String, into out: inout String) {
        let inner = indent + "  "
        switch value {
        case .array(let elements) where !elements.isEmpty:
            out += "[\n"
            for (index, element) in elements.enumerated() {
                out += inner
                write(element, indent: inner, into: &out)
                out += index == elements.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .object(let object) where !object.isEmpty:
            out += "{\n"
            for (index, member) in object.enumerated() {
                out += inner + compact(.string(member.key)) + ": "
                write(member.value, indent: inner, into: &out)
                out += index == object.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        default:
            out += compact(value)
        }
    }

    /// `value` as compact JSON text.
    static func compact(_ value: JSONValue) -> String { String(decoding: value.serialized(), as: UTF8.self) }
}

extension String {
    /// The text with its control characters (C0 but line feed and tab, DEL, C1) written as `\u{1B}`-style escapes:
    /// what a server sent (a store name, an error message, a close reason) cannot move the cursor, clear the screen
    /// or set the window title of the terminal it is printed on.
    var forTerminal: String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            if Self.isControl(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }
}
