import Foundation

/// The API's endpoints, matched from a request's method and path.
enum Route: Equatable {
    case health
    case listStores
    case readStore(String)
    case putStore(String)
    case deleteStore(String)
    case postAction(String)
    case reset(String)
    case webSocket(String)
    case events(String)
    /// `GET /stores/{name}/log`: a durable store's journal.
    case log(String)
    /// `/ws`: one WebSocket for many stores (subscribe/unsubscribe messages).
    case multiplexed
    /// `GET /client/statehouse.js`: the browser client (public, like `/healthz`).
    case clientScript
    /// `GET /metrics`: Prometheus text exposition of the server's figures (scope `metrics` under `auth`).
    case metrics
    /// `GET /inspector`, `/inspector/inspector.js`, `/inspector/inspector.css`: the inspector's static files
    /// (public, like the client script).
    case inspector(InspectorAssets.File)
    /// `GET /inspector/overview`: stores with subscribers and lag, connections per loop (scope `metrics` under `auth`).
    case inspectorOverview

    /// Matches `method` and `path` (the target without its query). A known path with the wrong method is a 405
    /// with `Allow`; anything else unknown is a 404 `not_found`.
    /// - Throws: ``APIError`` (404 `not_found`, 405 `method_not_allowed`).
    static func match(method: String, path: String) throws(APIError) -> Route {
        // Hot path: compare the path's UTF-8 bytes in place; no splitting, no arrays unless the answer is 405.
        let matched = path.utf8.withContiguousStorageIfAvailable { bytes in
            Result { () throws(APIError) in try match(method: method, bytes: bytes, path: path) }
        }
        if let matched { return try matched.get() }
        var copy = path
        copy.makeContiguousUTF8()
        return try match(method: method, path: copy)
    }

    private static func match(method: String, bytes: UnsafeBufferPointer<UInt8>, path: String) throws(APIError) -> Route {
        guard bytes.first == UInt8(ascii: "/") else { throw APIError.notFound(path) }
        // Up to three segments after the leading slash; a fourth means no route.
        var segments = SegmentBounds()
        var start = 1
        for index in 1...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
            guard segments.count < 3 else { throw APIError.notFound(path) }
            segments.append(start..<index)
            start = index + 1
        }
        let bounds = segments  // a constant: the local functions below capture it without access checks
        func equals(_ position: Int, _ literal: StaticString) -> Bool {
            let range = bounds[position]
            guard range.count == literal.utf8CodeUnitCount else { return false }
            return memcmp(bytes.baseAddress! + range.lowerBound, literal.utf8Start, range.count) == 0
        }
        func allow(_ allowed: Bool, _ methods: @autoclosure () -> [String], _ route: Route) throws(APIError) -> Route {
            guard allowed else { throw APIError.methodNotAllowed(method, allow: methods()) }
            return route
        }
        func name() throws(APIError) -> String {
            try storeName(UnsafeBufferPointer(rebasing: bytes[bounds[1]]), path: path)
        }
        let readable = method == "GET" || method == "HEAD"
        let named = bounds.count >= 2 && equals(0, "stores") && !bounds[1].isEmpty
        switch bounds.count {
        case 1 where equals(0, "healthz"):
            return try allow(readable, ["GET", "HEAD"], .health)
        case 1 where equals(0, "ws"):
            return try allow(method == "GET", ["GET"], .multiplexed)
        case 1 where equals(0, "metrics"):
            return try allow(readable, ["GET", "HEAD"], .metrics)
        case 1 where equals(0, "inspector"):
            return try allow(readable, ["GET", "HEAD"], .inspector(.page))
        case 1 where equals(0, "stores"):
            return try allow(readable, ["GET", "HEAD"], .listStores)
        case 2 where equals(0, "client") && equals(1, "statehouse.js"):
            return try allow(readable, ["GET", "HEAD"], .clientScript)
        case 2 where equals(0, "inspector"):
            let route: Route
            if equals(1, "overview") {
                route = .inspectorOverview
            } else if equals(1, "inspector.js") {
                route = .inspector(.script)
            } else if equals(1, "inspector.css") {
                route = .inspector(.styleSheet)
            } else {
                throw APIError.notFound(path)
            }
            return try allow(readable, ["GET", "HEAD"], route)
        case 2 where named:
            let name = try name()
            switch method {
            case "PUT": return .putStore(name)
            case "DELETE": return .deleteStore(name)
            default: return try allow(readable, ["GET", "HEAD", "PUT", "DELETE"], .readStore(name))
            }
        case 3 where named && equals(2, "actions"):
            return try allow(method == "POST", ["POST"], .postAction(try name()))
        case 3 where named && equals(2, "reset"):
            return try allow(method == "POST", ["POST"], .reset(try name()))
        case 3 where named && equals(2, "events"):
            return try allow(readable, ["GET", "HEAD"], .events(try name()))
        case 3 where named && equals(2, "log"):
            return try allow(readable, ["GET", "HEAD"], .log(try name()))
        case 3 where named && equals(2, "ws"):
            return try allow(method == "GET", ["GET"], .webSocket(try name()))
        default:
            throw APIError.notFound(path)
        }
    }

    /// The percent-decoded store name in a path segment (RFC 3986 §2.1).
    /// - Throws: 400 `invalid_store_name` when the segment does not decode (a bad `%` escape, or bytes that are not
    ///   UTF-8): no store can have that name.
    private static func storeName(_ segment: UnsafeBufferPointer<UInt8>, path: String) throws(APIError) -> String {
        let text = String(decoding: segment, as: UTF8.self)
        guard segment.contains(UInt8(ascii: "%")) else { return text }
        guard let decoded = text.removingPercentEncoding else { throw APIError.invalidStoreName(text) }
        return decoded
    }
}

/// The byte ranges of a path's first three segments (no allocation).
private struct SegmentBounds {
    private var ranges: (Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0)
    private(set) var count = 0

    mutating func append(_ range: Range<Int>) {
        switch count {
        case 0: ranges.0 = range
        case 1: ranges.1 = range
        default: ranges.2 = range
        }
        count += 1
    }

    subscript(position: Int) -> Range<Int> {
        switch position {
        case 0: ranges.0
        case 1: ranges.1
        default: ranges.2
        }
    }
}
