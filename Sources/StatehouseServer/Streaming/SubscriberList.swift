/// One channel's subscribers on a shard: an array, which a delivery round walks as a copy-on-write snapshot through
/// an unsafe buffer pointer (no index steps over hash buckets, no retain and release of each subscriber), with each
/// one's place by identity, so joining, leaving and a round's "still here?" check take constant time.
///
/// A leaver's place is taken by the last member (order is not kept; a round walks the snapshot it began with).
///
/// ## Thread safety
/// Loop-confined, like its shard.
struct SubscriberList {
    /// The subscribers, in no particular order.
    private(set) var members: ContiguousArray<any StreamSubscriber> = []
    /// Each member's index in ``members``.
    private var places: [ObjectIdentifier: Int] = [:]

    var isEmpty: Bool { members.isEmpty }

    /// Whether the subscriber with identity `id` is here.
    func contains(_ id: ObjectIdentifier) -> Bool { places[id] != nil }

    /// Adds `subscriber` (replaces it when already here).
    mutating func insert(_ subscriber: any StreamSubscriber) {
        let id = ObjectIdentifier(subscriber)
        if let place = places[id] { return members[place] = subscriber }
        places[id] = members.count
        members.append(subscriber)
    }

    /// Removes the subscriber with identity `id`; false when it was not here.
    mutating func remove(_ id: ObjectIdentifier) -> Bool {
        guard let place = places.removeValue(forKey: id) else { return false }
        let last = members.count - 1
        if place != last {
            members[place] = members[last]
            places[ObjectIdentifier(members[place])] = place
        }
        members.removeLast()
        return true
    }
}
