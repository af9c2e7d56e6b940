import Foundation
import JSONPatch

/// The recent states of one store (a ring of `capacity` versions, newest last), the source of resumes, patches,
/// projections and of reads that need no hop to the store's actor.
///
/// ## Thread safety
/// Not locked itself: ``StoreFanout`` owns it and uses it under its lock.
struct StoreHistory {
    /// Random for the life of this history: a client holding `epoch` + `version` may resume while both match.
    /// At most 15 hex digits (60 random bits), so the string is stored inline (no heap block).
    let epoch: String
    let capacity: Int
    /// The only entry until a second version is recorded: held inline, so an idle store's history has no array.
    private var first: Entry
    /// Every held entry from `head` on once a second version was recorded (the first among them); empty before.
    private var entries: [Entry] = []
    private var head = 0

    struct Entry {
        let version: UInt64
        let json: [UInt8]
        var value: JSONValue?
    }

    init(capacity: Int, initial version: UInt64, json: [UInt8]) {
        epoch = String(UInt64.random(in: 0..<(1 << 60)), radix: 16)
        self.capacity = max(capacity, 1)
        first = Entry(version: version, json: json, value: nil)
    }

    /// Appends the state of `version` (versions arrive in order) and forgets the oldest beyond `capacity`.
    mutating func record(version: UInt64, json: [UInt8]) {
        if entries.isEmpty {
            entries.append(first)
            first = Entry(version: first.version, json: [], value: nil)
        }
        entries.append(Entry(version: version, json: json, value: nil))
        if entries.count - head > capacity { head += 1 }
        if head >= capacity {
            entries.removeFirst(head)
            head = 0
        }
    }

    var newest: Entry { entries.last ?? first }
    var oldestVersion: UInt64 { entries.isEmpty ? first.version : entries[head].version }

    /// Whether `version` of this epoch is still held.
    func covers(_ version: UInt64, epoch: String) -> Bool {
        epoch == self.epoch && version >= oldestVersion && version <= newest.version
    }

    /// The parsed state of `version` (parsed on first use, then kept), or nil when it is no longer held.
    mutating func value(at version: UInt64) -> JSONValue? {
        guard version >= oldestVersion, version <= newest.version else { return nil }
        if entries.isEmpty { return Self.parsed(&first) }
        return Self.parsed(&entries[head + Int(version - oldestVersion)])
    }

    /// The entry's parsed JSON, parsed now and kept if not yet.
    private static func parsed(_ entry: inout Entry) -> JSONValue {
        if let value = entry.value { return value }
        let parsed = (try? JSONValue(parsing: entry.json)) ?? .null
        entry.value = parsed
        return parsed
    }

    /// The value of `version` seen through `path` (`null` when the pointer does not resolve).
    mutating func projection(at version: UInt64, path: JSONPointer?) -> JSONValue? {
        guard let value = value(at: version) else { return nil }
        guard let path else { return value }
        return value[pointer: path] ?? .null
    }

    /// `ETag` value of a version (RFC 9110 §8.8.3): `"<epoch>-<version>"`.
    func entityTag(_ version: UInt64) -> String { "\"\(epoch)-\(version)\"" }
}
