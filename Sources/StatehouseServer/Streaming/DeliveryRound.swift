/// What one drain of a shard delivers: the deliveries taken at once, by channel, to the subscribers there when the
/// round began (a subscriber that joins later got a newer snapshot; one that leaves is skipped).
///
/// A round that is still under way may *absorb* changes queued meanwhile (``absorb(_:of:)``): the subscribers it
/// has not reached yet get them together with the round's own messages (one `writev` each), and a *follow-up*
/// round brings them to the subscribers it had already served. So when changes come faster than one round reaches
/// every subscriber (fixed rates near saturation), a subscriber's due messages go out together instead of one
/// system call each, and each subscriber still gets every message of its channel in stream order.
///
/// Lifecycle:
/// ```
/// delivering ──absorb (changes only, once)──▶ delivering, with a follow-up ──done──▶ follow-up delivering ──▶ done
///     └──────────────────────────────────────────────done──────────────────────────────────────────────────────▶ done
/// ```
/// A follow-up round serves only part of its groups' subscribers and absorbs nothing.
///
/// ## Thread safety
/// Loop-confined, like its shard.
final class DeliveryRound {
    typealias Members = ContiguousArray<any StreamSubscriber>

    struct Group {
        let channel: StreamChannel
        /// This channel's messages of the round, in stream order.
        var messages: [StreamMessage]
        /// A copy of the channel's subscribers (copy-on-write: free unless the shard changes during the round).
        let subscribers: Members
        /// The part of `subscribers` the round serves: all of them, except in a follow-up round.
        let end: Int
        let start: Int

        init(channel: StreamChannel, messages: [StreamMessage], subscribers: Members, range: Range<Int>? = nil) {
            self.channel = channel
            self.messages = messages
            self.subscribers = subscribers
            start = range?.lowerBound ?? 0
            end = range?.upperBound ?? subscribers.count
        }
    }

    private(set) var groups: [Group]
    /// The newest version among the deliveries (nil: events only). An absorbed change counts in the follow-up's.
    let newestVersion: UInt64?
    /// The shard's removal count when the round began.
    let removalsAtStart: Int
    /// The round that brings absorbed changes to the subscribers served before they came (``absorb(_:of:)``).
    private(set) var followUp: DeliveryRound?
    /// False for a follow-up, and once a round has absorbed changes.
    private(set) var canAbsorb: Bool
    /// Where the next slice starts.
    private var group = 0
    private var next: Int?

    init(_ deliveries: [FanoutDelivery], of shard: FanoutShard) {
        shard.loop.assertInLoop()
        var groups: [Group] = []
        for (channel, members) in shard.subscribers {
            let messages = deliveries.compactMap { $0.message(for: channel) }
            if !messages.isEmpty { groups.append(Group(channel: channel, messages: messages, subscribers: members.members)) }
        }
        self.groups = groups
        newestVersion = deliveries.lazy.compactMap(\.version).max()
        removalsAtStart = shard.removals
        canAbsorb = true
    }

    /// A follow-up of a round that began with `removalsAtStart`.
    private init(followUp groups: [Group], newestVersion: UInt64?, removalsAtStart: Int) {
        self.groups = groups
        self.newestVersion = newestVersion
        self.removalsAtStart = removalsAtStart
        canAbsorb = false
    }

    /// Takes `changes` (queued after the round began; changes only, not events, so a subscriber joining meanwhile,
    /// whose first message is newer, needs none of them) into the round: the subscribers not reached yet get them
    /// after the round's own messages, and ``followUp`` brings them to those already served (and to the
    /// subscribers of channels the round had no message for). Once per round (``canAbsorb``).
    func absorb(_ changes: [FanoutDelivery], of shard: FanoutShard) {
        shard.loop.assertInLoop()
        precondition(canAbsorb && changes.allSatisfy { $0.version != nil }, "DeliveryRound: absorbs changes once")
        canAbsorb = false
        var followUps: [Group] = []
        var channels = Set<StreamChannel>()
        for index in groups.indices {
            let current = groups[index]
            channels.insert(current.channel)
            let added = changes.compactMap { $0.message(for: current.channel) }
            if added.isEmpty { continue }
            // Served so far: the whole group before the current one, the current one up to `next`.
            let served: Range<Int>? =
                index < group ? current.start..<current.end
                : index == group ? current.start..<(next ?? current.start) : nil
            if let served, !served.isEmpty {
                followUps.append(Group(channel: current.channel, messages: added, subscribers: current.subscribers, range: served))
            }
            if index >= group { groups[index].messages += added }
        }
        for (channel, members) in shard.subscribers where !channels.contains(channel) {
            let added = changes.compactMap { $0.message(for: channel) }
            if !added.isEmpty { followUps.append(Group(channel: channel, messages: added, subscribers: members.members)) }
        }
        followUp = DeliveryRound(
            followUp: followUps, newestVersion: changes.lazy.compactMap(\.version).max(), removalsAtStart: removalsAtStart)
    }

    /// Delivers the round's messages to more subscribers of `shard`, about `limit` messages in all (at least one
    /// subscriber's); true when the round is done.
    func deliverSlice(_ limit: Int, in shard: FanoutShard) -> Bool {
        shard.loop.assertInLoop()
        var left = limit
        while group < groups.count {
            let current = groups[group]
            let stopped = current.messages.withUnsafeBufferPointer { messages in
                current.subscribers.withUnsafeBufferPointer { subscribers in
                    deliver(messages, to: subscribers, of: current, from: next ?? current.start, limit: &left, in: shard)
                }
            }
            if let stopped {
                next = stopped
                return false
            }
            group += 1
            next = nil
        }
        return true
    }

    /// Gives `messages` to `subscribers` (the group's, both read in place: no retain and release per subscriber and
    /// message) from `index` on until `limit` messages were given; where it stopped, or nil at the group's end.
    private func deliver(
        _ messages: UnsafeBufferPointer<StreamMessage>, to subscribers: UnsafeBufferPointer<any StreamSubscriber>,
        of current: Group, from index: Int, limit left: inout Int, in shard: FanoutShard
    ) -> Int? {
        var index = index
        while index < current.end {
            if left <= 0 { return index }
            left -= messages.count
            let subscriber = subscribers[index]
            index += 1
            // Skip one that left since the round began (a closed socket, a /ws `unsubscribe`).
            if shard.removals != removalsAtStart, !shard.contains(ObjectIdentifier(subscriber), of: current.channel) {
                continue
            }
            for message in messages { subscriber.deliver(message) }
        }
        return nil
    }
}
