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
    /// `/ws`: one WebSocket for many stores (subscribe/unsubscribe messages).
    case multiplexed

    /// Matches `method` and `path` (the target without its query). A known path with the wrong method is a 405
    /// with `Allow`; anything else unknown is a 404 `not_found`.
    /// - Throws: ``APIError`` (404 `not_found`, 405 `method_not_allowed`).
    static func match(method: String, path: String) throws(APIError) -> Route {
        guard path.utf8.first == UInt8(ascii: "/") else { throw APIError.notFound(path) }
        // Hot path: split the UTF-8 view, no Character or Foundation work.
        let segments = path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), maxSplits: 3, omittingEmptySubsequences: false)
        let readable = ["GET", "HEAD"]
        func allow(_ methods: [String], _ route: Route) throws(APIError) -> Route {
            guard methods.contains(method) else { throw APIError.methodNotAllowed(method, allow: methods) }
            return route
        }
        func equals(_ index: Int, _ literal: StaticString) -> Bool {
            let segment = segments[index]
            return segment.count == literal.utf8CodeUnitCount
                && segment.elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }
        let named = segments.count >= 2 && equals(0, "stores") && !segments[1].isEmpty
        switch segments.count {
        case 1 where equals(0, "healthz"):
            return try allow(readable, .health)
        case 1 where equals(0, "ws"):
            return try allow(["GET"], .multiplexed)
        case 1 where equals(0, "stores"):
            return try allow(readable, .listStores)
        case 2 where named:
            let name = try storeName(segments[1], path: path)
            switch method {
            case "PUT": return .putStore(name)
            case "DELETE": return .deleteStore(name)
            default: return try allow(readable + ["PUT", "DELETE"], .readStore(name))
            }
        case 3 where named && equals(2, "actions"):
            return try allow(["POST"], .postAction(try storeName(segments[1], path: path)))
        case 3 where named && equals(2, "reset"):
            return try allow(["POST"], .reset(try storeName(segments[1], path: path)))
        case 3 where named && equals(2, "events"):
            return try allow(["GET"], .events(try storeName(segments[1], path: path)))
        case 3 where named && equals(2, "ws"):
            return try allow(["GET"], .webSocket(try storeName(segments[1], path: path)))
        default:
            throw APIError.notFound(path)
        }
    }

    /// The percent-decoded store name in a path segment (RFC 3986 §2.1).
    private static func storeName(_ segment: Substring.UTF8View, path: String) throws(APIError) -> String {
        guard segment.contains(UInt8(ascii: "%")) else { return String(Substring(segment)) }
        guard let decoded = String(Substring(segment)).removingPercentEncoding else { throw APIError.notFound(path) }
        return decoded
    }
}
