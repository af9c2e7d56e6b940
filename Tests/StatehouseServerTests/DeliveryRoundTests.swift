@testable import StatehouseServer
import Testing
import UVLoop

/// A delivery round absorbs changes queued while it runs (issue 18): the subscribers it has not reached get them with
/// its own messages, in the same slice (so in one write each), its follow-up brings them to the ones it had served,
/// and every subscriber still gets every version of its channel once, in order.
@Suite struct DeliveryRoundTests {
    /// Records what it is given, with the number of the slice that gave it.
    final class Recorder: StreamSubscriber {
        let channel: StreamChannel
        let loop: EventLoop
        var slice = 0
        var received: [(version: UInt64, slice: Int)] = []

        init(channel: StreamChannel, loop: EventLoop) {
            self.channel = channel
            self.loop = loop
        }

        func deliver(_ message: StreamMessage) { received.append((message.version, slice)) }
    }

    static func change(_ version: UInt64, channels: [StreamChannel]) -> FanoutDelivery {
        var messages: [StreamChannel: StreamMessage] = [:]
        for channel in channels {
            messages[channel] = StreamMessage(kind: .state, version: version, epoch: "e", json: Array(#"{"v":\#(version)}"#.utf8))
        }
        return .change(version: version, messages: messages)
    }

    /// Runs `round` a slice of one subscriber at a time (`perSubscriber` messages each), numbering the slices.
    static func run(_ round: DeliveryRound, in shard: FanoutShard, recorders: [Recorder], from slice: inout Int,
                    perSubscriber: Int, until stop: (Int) -> Bool = { _ in false }) -> Bool {
        while true {
            slice += 1
            for recorder in recorders { recorder.slice = slice }
            if round.deliverSlice(perSubscriber, in: shard) { return true }
            if stop(slice) { return false }
        }
    }

    @Test func aRoundAbsorbsChangesQueuedWhileItRuns() throws {
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let patches = StreamChannel(format: .patch)
        let result = try loop.submitAndWait { () -> [String] in
            var problems: [String] = []
            let shard = FanoutShard(loop: loop)
            let whole = (0..<5).map { _ in Recorder(channel: .whole, loop: loop) }
            // A channel the round has no message for: only the absorbed change has one.
            let other = (0..<2).map { _ in Recorder(channel: patches, loop: loop) }
            for recorder in whole + other { shard.subscribers[recorder.channel, default: SubscriberList()].insert(recorder) }
            let round = DeliveryRound([Self.change(1, channels: [.whole]), Self.change(2, channels: [.whole])], of: shard)
            var slice = 0
            // Two slices: two subscribers served with versions 1 and 2.
            if Self.run(round, in: shard, recorders: whole + other, from: &slice, perSubscriber: 2, until: { $0 == 2 }) {
                problems.append("the round ended early")
            }
            if !shard.enqueue(Self.change(3, channels: [.whole, patches])) { problems.append("a drain was running") }
            guard let changes = shard.takeQueuedChanges(), round.canAbsorb else { return problems + ["nothing to absorb"] }
            round.absorb(changes, of: shard)
            if round.canAbsorb { problems.append("a round absorbs once") }
            // One subscriber served before the follow-up leaves: the follow-up skips it.
            guard let leaver = whole.first(where: { !$0.received.isEmpty }) else { return problems + ["none served"] }
            _ = Self.run(round, in: shard, recorders: whole + other, from: &slice, perSubscriber: 3)
            if round.newestVersion != 2 { problems.append("the round's newest version is \(String(describing: round.newestVersion))") }
            if !shard.remove(leaver) { problems.append("the leaver was not subscribed") }
            guard let followUp = round.followUp else { return problems + ["no follow-up"] }
            if followUp.newestVersion != 3 || followUp.canAbsorb { problems.append("the follow-up is not version 3's") }
            _ = Self.run(followUp, in: shard, recorders: whole + other, from: &slice, perSubscriber: 1)
            for recorder in whole where recorder !== leaver {
                let versions = recorder.received.map(\.version)
                if versions != [1, 2, 3] { problems.append("a subscriber got \(versions)") }
            }
            if leaver.received.map(\.version) != [1, 2] { problems.append("the leaver got \(leaver.received.map(\.version))") }
            // Reached after the absorb: all three versions in one slice (one write); before it: version 3 later.
            let together = whole.filter { $0 !== leaver && Set($0.received.map(\.slice)).count == 1 }.count
            if together != 3 { problems.append("\(together) subscribers got their versions in one slice, not 3") }
            for recorder in other where recorder.received.map(\.version) != [3] {
                problems.append("a subscriber of the other channel got \(recorder.received.map(\.version))")
            }
            return problems
        }
        #expect(result.isEmpty, "\(result)")
    }

    /// Events are not absorbed (a subscriber joining meanwhile must still get them, as before): the queue is left for
    /// the next round.
    @Test func eventsWaitForTheNextRound() throws {
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let taken = try loop.submitAndWait { () -> Bool in
            let shard = FanoutShard(loop: loop)
            _ = shard.enqueue(Self.change(1, channels: [.whole]))
            _ = shard.enqueue(.broadcast(StreamMessage(kind: .event, version: 1, epoch: "e", json: Array("{}".utf8))))
            let taken = shard.takeQueuedChanges() != nil
            return taken || shard.takeQueued().count != 2
        }
        #expect(!taken)
    }
}
