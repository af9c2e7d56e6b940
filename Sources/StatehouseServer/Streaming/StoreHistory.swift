import Foundation
import JSONPatch

/// The recent states of one store (a ring of `capacity` versions, newest last), the source of resumes, patches,
/// projections and of reads that need no hop to the store's actor.
///
/// ## Thread safety
/// Not locked itself: ``StoreFanout`` owns it and uses it under its lock.
struct StoreHistory {
    /// Random for the life of this history: a client holding `epoch` + `version` may resume while both match.
    let epoch: String
    let capacity: Int
    private var entries: [Entry] = []
    private var head = 0

    struct Entry {
        let version: UInt64
        let json: [UInt8]
        var value: JSONValue?
    }

    init(capacity: Int, initial version: UInt64, json: [UInt8]) {
        epoch = String(UInt64.random(in: .min ... .max), radix: 16)
        self.capacity = max(capacity, 1)
        entries = [Entry(version: version, json: json, value: nil)]
    }

    /// Appends the state of `version` (versions arrive in order) and forgets the oldest beyond `capacity`.
    mutating func record(version: UInt64, json: [UInt8]) {
        entries.append(Entry(version: version, json: json, value: nil))
        if entries.count - head > capacity { head += 1 }
        if head >= capacity {
            entries.removeFirst(head)
            head = 0
        }
    }

    var newest: Entry { entries[entries.count - 1] }
    var oldestVersion: UInt64 { entries[head].version }

    /// Whether `version` of this epoch is still held.
    func covers(_ version: UInt64, epoch: String) -> Bool {
        epoch == self.epoch && version >= oldestVersion && version <= newest.version
    }

    /// The parsed state of `version` (parsed on first use, then kept), or nil when it is no longer held.
    mutating func value(at version: UInt64) -> JSONValue? {
        guard version >= oldestVersion, version <= newest.version else { return nil }
        let index = head + Int(version - oldestVersion)
        if let value = entries[index].value { return value }
        let parsed = (try? JSONValue(parsing: entries[index].json)) ?? .null
        entries[index].value = parsed
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
