import JSON
import Locking

/// The recent states of one store (the last `capacity` versions), the source of resumes, patches, projections and
/// of reads that need no hop to the store's actor. Its memory is about one state plus what the changes touched, not
/// `capacity` states.
///
/// ## What is kept
/// - The newest version in full: its JSON bytes (shared with the store's reply cache) and, once someone needed it
///   (a patch, a projection, a resume), its parsed value. When the next version is recorded, that parsed value is
///   kept one version longer as the previous one's (a `format=patch` stream diffs each version with the one before),
///   then dropped.
/// - Each older version `v` as one *step*: its JSON bytes as they are (``Step/full(_:)``), or a backward byte delta
///   against the version above it (``Step/delta(_:)``): the bytes of `v` are those of `v + 1` with one middle range
///   replaced (the longest common prefix and suffix are shared). Full steps are always the most recent older ones
///   (a run just below the newest). While they hold at most ``fullBudget`` bytes they stay as they are, so a small
///   store's history costs nothing per version beyond keeping its bytes; past it, every full step becomes a delta.
/// - No parsed tree of an older version: its bytes are rebuilt when asked for (applying the deltas from the nearest
///   full state above it) and parsed, and neither is kept.
///
/// ## Why byte deltas rather than RFC 6902 patches
/// A patch per version needs each version parsed and diffed with the one before as it is recorded: measured here,
/// about 8 ms per MB of state on every change, more than encoding it. A delta needs two scans at memory speed (the
/// common prefix and suffix), no parse and no tree. Rebuilt versions are, byte for byte, the JSON the store encoded,
/// so clients see exactly what full copies gave them: a resume (`epoch` + `since`, `GET ?since=`, SSE
/// `Last-Event-ID`) diffs the parsed state at `since` with the newest, one minimal patch as before (not a
/// concatenation of every step, which could outgrow the state); a projection (`?path=`) of an old version, its dedup
/// and its patches are unchanged; versions, epochs and entity tags are what they were. A delta is small when a change
/// is local (an append, a toggle, an edit: the bytes around it are shared) and at most the older state's size when
/// it is not (e.g. removals spread over a whole list), never more than the full copy it replaces. Rebuilding the
/// version `k` steps back costs `k` copies of the state (rare: resumes and catch-ups from far back).
///
/// ## Thread safety
/// Not locked itself: ``StoreFanout`` owns it and uses it under its lock.
struct StoreHistory {
    /// Random for the life of this history: a client holding `epoch` + `version` may resume while both match.
    /// At most 15 hex digits (60 random bits), so the string is stored inline (no heap block).
    let epoch: String
    let capacity: Int
    private(set) var newestVersion: UInt64
    /// The newest state's JSON (sorted keys, as the store encoded it).
    private(set) var newestJSON: [UInt8]
    /// When the newest version was recorded (``MonotonicClock/nowNs()``: monotonic ns).
    private(set) var newestMadeAt: UInt64
    /// Parsed states, at most two: the newest once someone needed it, and the one before if it was parsed as the
    /// newest (kept until the next record). An array, so a history nobody parsed holds no room for them.
    private var parsed: [(version: UInt64, value: JSONValue)] = []
    /// The older versions' steps, oldest at `head` (the one of ``oldestVersion``); the array's start before `head`
    /// is dropped in bulk (amortized O(1) per record). Empty while only one version is held: an idle store's history
    /// has no array.
    private var steps: [Step] = []
    /// When each step's version was recorded, in step with `steps` (a subscriber's lag in seconds is the age of the
    /// oldest version it does not hold).
    private var stepTimes: [UInt64] = []
    private var head = 0
    /// Bytes held by the full steps.
    private(set) var fullBytes = 0
    /// Bytes of older states kept as they are before they all become deltas.
    let fullBudget: Int

    /// The default ``fullBudget``: 1 MiB, so states up to 16 KiB, with the default 64 versions, are kept as they are
    /// (as cheap per version as before).
    static let defaultFullBudget = 1 << 20

    /// How one older version is kept.
    enum Step {
        /// Its state's JSON.
        case full([UInt8])
        /// Its state's JSON as the next version's with a middle range replaced.
        case delta(ByteDelta)
    }

    init(capacity: Int, initial version: UInt64, json: [UInt8], fullBudget: Int = defaultFullBudget, epoch: String? = nil) {
        self.epoch = epoch ?? Self.newEpoch()
        self.capacity = max(capacity, 1)
        self.fullBudget = fullBudget
        newestVersion = version
        newestJSON = json
        newestMadeAt = MonotonicClock.nowNs()
    }

    /// A new random epoch: 15 hex digits.
    static func newEpoch() -> String { String(UInt64.random(in: 0..<(1 << 60)), radix: 16) }

    var oldestVersion: UInt64 { newestVersion - UInt64(steps.count - head) }

    /// When `version` was recorded (monotonic ns), or, for one older than the history holds, when the oldest held
    /// was (so a lag computed from it is a lower bound); nil past the newest.
    func madeAt(_ version: UInt64) -> UInt64? {
        guard version <= newestVersion else { return nil }
        if version == newestVersion { return newestMadeAt }
        return stepTimes[head + Int(version > oldestVersion ? version - oldestVersion : 0)]
    }

    /// Whether `version` of this epoch is still held.
    func covers(_ version: UInt64, epoch: String) -> Bool {
        epoch == self.epoch && version >= oldestVersion && version <= newestVersion
    }

    /// `ETag` value of a version (RFC 9110 §8.8.3): `"<epoch>-<version>"`.
    func entityTag(_ version: UInt64) -> String { "\"\(epoch)-\(version)\"" }

    /// Bytes the older versions take (their steps' JSON or delta bytes; tests and benchmarks).
    var olderBytes: Int {
        steps[head...].reduce(0) { total, step in
            switch step {
            case .full(let json): total + json.count
            case .delta(let delta): total + delta.middle.count
            }
        }
    }

    // MARK: Recording

    /// Appends the state of `version` (versions arrive in order) and forgets the oldest beyond `capacity`.
    /// `sharedEnds`: bytes the new JSON is known to share with the newest's at its start and end (lower bounds, from
    /// ``JSONCoding/JSONIncrementalEncoding/sharedEnds(_:_:)``), so its delta scans only the bytes between.
    mutating func record(
        version: UInt64, json: [UInt8], madeAt: UInt64 = MonotonicClock.nowNs(), sharedEnds: (prefix: Int, suffix: Int) = (0, 0)
    ) {
        parsed.removeAll { $0.version != newestVersion || capacity == 1 }
        if capacity > 1 {
            steps.append(.full(newestJSON))
            stepTimes.append(newestMadeAt)
            fullBytes += newestJSON.count
        }
        newestVersion = version
        newestJSON = json
        newestMadeAt = madeAt
        if steps.count - head > capacity - 1 {
            if case .full(let dropped) = steps[head] { fullBytes -= dropped.count }
            steps[head] = .delta(ByteDelta())  // its bytes go now, not when the prefix is dropped
            head += 1
        }
        if head >= capacity {
            steps.removeFirst(head)
            stepTimes.removeFirst(head)
            head = 0
        }
        if fullBytes > fullBudget { compact(sharedEnds) }
    }

    /// Turns every full step into a delta against the version above it, newest first (`sharedEnds`: known shared
    /// bytes of the newest and the step below it).
    private mutating func compact(_ sharedEnds: (prefix: Int, suffix: Int)) {
        var above = newestJSON
        var index = steps.count - 1
        var known = sharedEnds
        while index >= head, case .full(let json) = steps[index] {
            steps[index] = .delta(ByteDelta(from: above, to: json, sharing: known))
            known = (0, 0)
            above = json
            index -= 1
        }
        fullBytes = 0
    }

    // MARK: Values

    /// The parsed newest state (parsed now and kept if not yet).
    mutating func newest() -> JSONValue {
        if let kept = parsed.last, kept.version == newestVersion { return kept.value }
        let value = Self.parse(newestJSON)
        parsed.append((newestVersion, value))
        return value
    }

    /// The JSON of `version` as the store encoded it, or nil when it is no longer held (older versions rebuilt).
    func json(at version: UInt64) -> [UInt8]? {
        guard version >= oldestVersion, version <= newestVersion else { return nil }
        if version == newestVersion { return newestJSON }
        let index = head + Int(version - oldestVersion)
        if case .full(let json) = steps[index] { return json }
        // The nearest full state above (a full step, or the newest), then the deltas down to `version`.
        var top = index + 1
        while top < steps.count, case .delta = steps[top] { top += 1 }
        var json = newestJSON
        if top < steps.count, case .full(let full) = steps[top] { json = full }
        for step in stride(from: top - 1, through: index, by: -1) {
            guard case .delta(let delta) = steps[step] else { return nil }
            json = delta.apply(to: json)
        }
        return json
    }

    /// The parsed state of `version`, or nil when it is no longer held. Only the newest (and, until the next record,
    /// the previous one if it was parsed as the newest) is kept parsed.
    mutating func value(at version: UInt64) -> JSONValue? {
        if version == newestVersion { return newest() }
        if let kept = parsed.first, kept.version == version, version >= oldestVersion { return kept.value }
        return json(at: version).map(Self.parse)
    }

    /// The value of `version` seen through `path` (`null` when the pointer does not resolve).
    mutating func projection(at version: UInt64, path: JSONPointer?) -> JSONValue? {
        guard let value = value(at: version) else { return nil }
        guard let path else { return value }
        return value[pointer: path] ?? .null
    }

    private static func parse(_ json: [UInt8]) -> JSONValue { (try? JSONValue(parsing: json)) ?? .null }
}

/// One byte sequence as another with a middle range replaced: `target` = `base[..<prefix]` + `middle` +
/// `base[(base.count - suffix)...]`, where `prefix` and `suffix` are the longest common prefix and suffix.
struct ByteDelta {
    var prefix = 0
    var suffix = 0
    var middle: [UInt8] = []

    init() {}

    /// The delta that turns `base` into `target`. `sharing`: how many leading and trailing bytes they are known to
    /// share (lower bounds whose sum is at most the shorter's length): the scans start past them.
    init(from base: [UInt8], to target: [UInt8], sharing known: (prefix: Int, suffix: Int) = (0, 0)) {
        base.withUnsafeBytes { base in
            target.withUnsafeBytes { target in
                let limit = min(base.count, target.count)
                let knownPrefix = min(known.prefix, limit)
                prefix = knownPrefix
                    + Self.commonPrefix(
                        base.baseAddress.map { $0 + knownPrefix }, target.baseAddress.map { $0 + knownPrefix },
                        limit - knownPrefix)
                let knownSuffix = min(known.suffix, limit - prefix)
                suffix = knownSuffix
                    + Self.commonSuffix(
                        UnsafeRawBufferPointer(rebasing: base[..<(base.count - knownSuffix)]),
                        UnsafeRawBufferPointer(rebasing: target[..<(target.count - knownSuffix)]),
                        limit - prefix - knownSuffix)
            }
        }
        middle = Array(target[prefix..<(target.count - suffix)])
    }

    /// `target`, rebuilt from `base`.
    func apply(to base: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(prefix + middle.count + suffix)
        result += base[..<prefix]
        result += middle
        result += base[(base.count - suffix)...]
        return result
    }

    /// Equal leading bytes of `a` and `b` (`limit` readable in each), eight at a time.
    private static func commonPrefix(_ a: UnsafeRawPointer?, _ b: UnsafeRawPointer?, _ limit: Int) -> Int {
        guard let a, let b else { return 0 }
        var count = 0
        while count + 8 <= limit, a.loadUnaligned(fromByteOffset: count, as: UInt64.self)
            == b.loadUnaligned(fromByteOffset: count, as: UInt64.self)
        {
            count += 8
        }
        while count < limit, a.load(fromByteOffset: count, as: UInt8.self) == b.load(fromByteOffset: count, as: UInt8.self) {
            count += 1
        }
        return count
    }

    /// Equal trailing bytes of `a` and `b`, at most `limit`, eight at a time.
    private static func commonSuffix(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, _ limit: Int) -> Int {
        guard let a0 = a.baseAddress, let b0 = b.baseAddress else { return 0 }
        let aEnd = a.count, bEnd = b.count
        var count = 0
        while count + 8 <= limit, a0.loadUnaligned(fromByteOffset: aEnd - count - 8, as: UInt64.self)
            == b0.loadUnaligned(fromByteOffset: bEnd - count - 8, as: UInt64.self)
        {
            count += 8
        }
        while count < limit, a0.load(fromByteOffset: aEnd - count - 1, as: UInt8.self)
            == b0.load(fromByteOffset: bEnd - count - 1, as: UInt8.self)
        {
            count += 1
        }
        return count
    }
}
