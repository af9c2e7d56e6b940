public import Statehouse

/// A benchmark reducer: `{"seq":Int,"t":Int,"pad":String}`.
///
/// `publish(seq:t:)` copies the publisher's sequence number and send timestamp (nanoseconds, the publisher's
/// monotonic clock; the server never reads it) into the state, so every subscriber can compute end-to-end latency
/// from the state message alone. `pad` keeps the whole `state` message at about 100 bytes; it never changes.
/// FSA form: `{"type":"publish","payload":{"seq":1,"t":123456789}}`.
public struct Ticker: ServableReducer {
    public struct State: Codable, Equatable, Sendable {
        /// The publisher's sequence number of the last action.
        public var seq: Int
        /// The publisher's send time of the last action, in nanoseconds.
        public var t: Int
        /// Constant filler (16 bytes by default).
        public var pad: String
        public init(seq: Int = 0, t: Int = 0, pad: String = "0123456789abcdef") {
            self.seq = seq
            self.t = t
            self.pad = pad
        }
    }

    public enum Action: Codable, Sendable, Equatable {
        /// Sets `seq` and `t` (`t` in nanoseconds).
        case publish(seq: Int, t: Int)
    }

    public static let initialState = State()
    public static let actionTypes = ["publish"]

    public init() {}

    public func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .publish(let seq, let t):
            state.seq = seq
            state.t = t
        }
        return .none
    }
}
