/// The body of `GET /inspector/overview` (docs/protocol.md): every store with its subscribers and lag, and every
/// loop's connections, as one JSON object:
///
/// ```json
/// {"stores":[{"name":"counter","reducer":"Counter","version":4,"durable":false,
///             "cluster":{"node":"n1","owned":true,"leaseHeldMs":5120,"owner":null},
///             "subscribers":{"websocket":1,"sse":0},"slowestLagVersions":0,"slowestLagMs":0}],
///  "loops":[{"loop":0,"connections":[{"id":1,"kind":"websocket","peer":"127.0.0.1:50312","ageMs":5120,
///                                     "unsentBytes":0,"subscriptions":["counter"]}]}]}
/// ```
///
/// Stores are sorted by name, loops by index, connections by number. `subscribers`, `slowestLagVersions` and
/// `slowestLagMs` are the figures of `GET /metrics` (`statehouse_store_subscribers`,
/// `statehouse_store_slowest_subscriber_lag_versions` and `…_lag_seconds` in ms, read the same way: ``LoopFigures``); `durable` says whether the store has a journal (`GET /stores/{name}/log`); `cluster`, only on a cluster node (docs/cluster.md): this node's name, whether it owns the store, for how long (ms), and the lease value `NODE:TOKEN` of the owner: its own when it owns the store, else the last one it saw (from a change the owner published or an answer), or null.
enum InspectorOverview {
    /// What one loop contributes, read on that loop.
    struct Loop: Sendable {
        var figures: LoopFigures
        var connections: [ConnectionFigures]

        /// Reads `context`'s loop; call on that loop.
        static func read(_ context: ServerContext, stores: [String: HostedStore]) -> Loop {
            Loop(figures: LoopFigures.read(context, stores: stores), connections: ConnectionFigures.read(context))
        }
    }

    /// The JSON body (UTF-8) for `stores` and what every loop read of them.
    static func body(stores: [String: HostedStore], loops: [Loop]) -> [UInt8] {
        let loops = loops.sorted { $0.figures.loopIndex < $1.figures.loopIndex }
        var out: [UInt8] = []
        let figures = loops.map(\.figures)
        out.appendLiteral(#"{"stores":["#)
        for (index, name) in stores.keys.sorted().enumerated() {
            guard let store = stores[name] else { continue }
            let streams = LoopFigures.StreamFigures.total(of: name, in: figures)
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.appendLiteral(#"{"name":"#)
            out += JSONText.quoted(name).utf8
            out.appendLiteral(#","reducer":"#)
            out += JSONText.quoted(store.reducerName).utf8
            out.appendLiteral(#","version":"#)
            out.appendDecimal(store.fanout.newest.version)
            out.appendLiteral(#","durable":"#)
            if store.persistence != nil { out.appendLiteral("true") } else { out.appendLiteral("false") }
            if let member = store.cluster {
                let ownership = member.ownership
                out.appendLiteral(#","cluster":{"node":"#)
                out += JSONText.quoted(member.nodeName).utf8
                out.appendLiteral(ownership.owned ? #","owned":true,"leaseHeldMs":"# : #","owned":false,"leaseHeldMs":"#)
                out.appendDecimal(UInt64(max(0, ownership.heldMs ?? 0)))
                out.appendLiteral(#","owner":"#)
                if let owner = ownership.owner { out += JSONText.quoted(owner).utf8 } else { out.appendLiteral("null") }
                out.append(UInt8(ascii: "}"))
            }
            out.appendLiteral(#","subscribers":{"websocket":"#)
            out.appendDecimal(UInt64(streams.webSocket))
            out.appendLiteral(#","sse":"#)
            out.appendDecimal(UInt64(streams.serverSentEvents))
            out.appendLiteral(#"},"slowestLagVersions":"#)
            out.appendDecimal(streams.slowestLag)
            out.appendLiteral(#","slowestLagMs":"#)
            out.appendDecimal(streams.slowestLagNs / 1_000_000)
            out.append(UInt8(ascii: "}"))
        }
        out.appendLiteral(#"],"loops":["#)
        for (index, loop) in loops.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.appendLiteral(#"{"loop":"#)
            out.appendDecimal(UInt64(loop.figures.loopIndex))
            out.appendLiteral(#","connections":["#)
            for (position, connection) in loop.connections.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                write(connection, into: &out)
            }
            out.appendLiteral("]}")
        }
        out.appendLiteral("]}")
        return out
    }

    private static func write(_ connection: ConnectionFigures, into out: inout [UInt8]) {
        out.appendLiteral(#"{"id":"#)
        out.appendDecimal(connection.id)
        out.appendLiteral(#","kind":"#)
        out += JSONText.quoted(connection.kind.rawValue).utf8
        out.appendLiteral(#","peer":"#)
        if let peer = connection.peer { out += JSONText.quoted(peer).utf8 } else { out.appendLiteral("null") }
        out.appendLiteral(#","ageMs":"#)
        out.appendDecimal(connection.ageMs)
        out.appendLiteral(#","unsentBytes":"#)
        out.appendDecimal(UInt64(connection.unsentBytes))
        out.appendLiteral(#","subscriptions":["#)
        out += connection.subscriptions.map(JSONText.quoted).joined(separator: ",").utf8
        out.appendLiteral("]}")
    }
}
