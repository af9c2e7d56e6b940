import Foundation
import UVLoop
import WebSocket

/// Something on the loop that receives a store's state frames (a WebSocket session).
protocol StateSubscriber: AnyObject {
    /// Delivers one encoded state frame of `version`. Called on the loop thread, in version order.
    func deliver(version: UInt64, frame: OutboundBuffer)
    /// Delivers one encoded event frame, in stream order with the state frames.
    func deliverEvent(frame: OutboundBuffer)
}

/// One store's WebSocket subscribers and the frames sent to them.
///
/// Each state change is encoded once, framed once, and the same bytes are written to every subscriber.
///
/// Joining is race-free without holding the store: a session first ``reserve()``s (so every later change is
/// broadcast), then reads the snapshot, then ``join(_:snapshot:)``s on the loop, where it gets the snapshot and,
/// if a newer frame was broadcast meanwhile, that frame too. So a subscriber's first message is the snapshot, versions
/// only grow, and it always ends on the newest state.
///
/// ## Thread safety
/// ``hasSubscribers``, ``reserve()`` and ``broadcast(version:message:)`` may be called from any thread; the
/// subscriber list is loop-confined (``join(_:snapshot:)`` and ``leave(_:)`` run on the loop thread).
final class StoreFanout: @unchecked Sendable {
    let storeName: String
    private let lock = NSLock()
    private var reservations = 0
    private var loop: EventLoop?
    // Loop-confined:
    private var subscribers: [ObjectIdentifier: any StateSubscriber] = [:]
    private var latest: (version: UInt64, frame: OutboundBuffer)?

    init(storeName: String) { self.storeName = storeName }

    /// Binds the fanout to the loop its subscribers live on.
    func attach(to loop: EventLoop) { lock.withLock { self.loop = loop } }

    /// True while at least one subscriber has reserved a place.
    var hasSubscribers: Bool { lock.withLock { reservations > 0 } }

    /// Announces a subscriber that will join: from now on every change is broadcast.
    func reserve() { lock.withLock { reservations += 1 } }

    /// Frames `message` once and hands it to every subscriber on the loop.
    func broadcast(version: UInt64, message: [UInt8]) {
        let frame = Self.textFrame(message)
        guard let loop = lock.withLock({ loop }) else { return }
        loop.execute { [self] in
            if (latest?.version ?? 0) < version || latest == nil { latest = (version, frame) }
            for subscriber in subscribers.values { subscriber.deliver(version: version, frame: frame) }
        }
    }

    /// Frames an event message once and hands it to every joined subscriber, in order with the state frames.
    /// Subscribers still joining do not get it (events are not replayed).
    func broadcastEvent(_ message: [UInt8]) {
        let frame = Self.textFrame(message)
        guard let loop = lock.withLock({ loop }) else { return }
        loop.execute { [self] in
            for subscriber in subscribers.values { subscriber.deliverEvent(frame: frame) }
        }
    }

    /// Adds a subscriber (loop thread) after sending it `snapshot` and, if newer, the latest broadcast frame.
    func join(_ subscriber: any StateSubscriber, snapshot: StateReply) {
        subscriber.deliver(version: snapshot.version, frame: Self.textFrame(Envelope.stateMessage(store: storeName, snapshot)))
        if let latest, latest.version > snapshot.version { subscriber.deliver(version: latest.version, frame: latest.frame) }
        subscribers[ObjectIdentifier(subscriber)] = subscriber
    }

    /// Removes a subscriber (loop thread) and gives back its reservation. Idempotent per joined subscriber.
    func leave(_ subscriber: any StateSubscriber) {
        if subscribers.removeValue(forKey: ObjectIdentifier(subscriber)) != nil { cancelReservation() }
    }

    /// Gives back a reservation for a subscriber that never joined.
    func cancelReservation() { lock.withLock { reservations -= 1 } }

    /// One unmasked, unfragmented text frame (RFC 6455 §5.2) holding `payload`.
    static func textFrame(_ payload: [UInt8]) -> OutboundBuffer {
        let header = WebSocketFrameEncoder.headerLength(payloadLength: payload.count)
        return OutboundBuffer(count: header + payload.count) { base in
            _ = WebSocketFrameEncoder.writeHeader(opcode: .text, payloadLength: payload.count, fin: true, to: base)
            payload.withUnsafeBytes { source in
                if let from = source.baseAddress { (base + header).copyMemory(from: from, byteCount: source.count) }
            }
        }
    }
}
