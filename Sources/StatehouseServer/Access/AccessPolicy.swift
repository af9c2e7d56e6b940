private import CCrypto

/// Who may do what (configuration `auth`): bearer tokens, each granted scopes on some stores.
///
/// Tokens are kept only as SHA-256 digests (the file may give `tokenSha256` so it holds no secret); a presented token
/// is hashed and compared with every known digest in constant time (`CRYPTO_memcmp`, no early exit), so timing does
/// not reveal how much of a token matched or which entry it is.
public struct AccessPolicy: Sendable {
    /// What a token may do.
    public enum Scope: String, Sendable, CaseIterable {
        /// Read states and streams (GET, WebSocket and SSE subscriptions).
        case read
        /// Send actions and resets.
        case write
        /// Create and delete stores.
        case admin
        /// Scrape `GET /metrics` and read `GET /inspector/overview` (figures of every store and loop, the connection
        /// list; nothing else). A scope of its own, so a monitoring system's token can neither read states nor create
        /// or delete stores.
        case metrics
    }

    /// One token's rights.
    public struct Grant: Sendable, Equatable {
        /// Store names, or patterns ending in `*` (a prefix), e.g. `["counter", "todo*"]`; `["*"]` for all.
        public var stores: [String]
        public var scopes: Set<Scope>

        public init(stores: [String], scopes: Set<Scope>) {
            self.stores = stores
            self.scopes = scopes
        }

        /// Whether this grant allows `scope` on the store `name`.
        public func allows(_ scope: Scope, on name: String) -> Bool {
            scopes.contains(scope) && covers(name)
        }

        /// Whether `name` matches one of the store patterns.
        public func covers(_ name: String) -> Bool {
            stores.contains { pattern in
                pattern.hasSuffix("*") ? name.hasPrefix(pattern.dropLast()) : name == pattern
            }
        }
    }

    private let entries: [(digest: [UInt8], grant: Grant)]

    /// - Parameter entries: SHA-256 digests (32 bytes) of the tokens, with their grants.
    public init(entries: [(digest: [UInt8], grant: Grant)]) {
        self.entries = entries
    }

    /// How many tokens the policy knows (for the reload line `auth: 2 tokens → 3 tokens`; never the tokens).
    public var tokenCount: Int { entries.count }

    /// Whether `other` knows the same token digests with the same grants, in the same order.
    func isSame(as other: AccessPolicy) -> Bool {
        entries.count == other.entries.count && zip(entries, other.entries).allSatisfy { a, b in
            a.digest == b.digest && a.grant == b.grant
        }
    }

    /// The grant of `token`, or nil when it is unknown.
    public func grant(for token: String) -> Grant? {
        let digest = Self.sha256(Array(token.utf8))
        var found: Grant?
        for entry in entries where entry.digest.count == digest.count {
            let equal = entry.digest.withUnsafeBytes { a in
                digest.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, digest.count) == 0 }
            }
            if equal, found == nil { found = entry.grant }
        }
        return found
    }

    /// SHA-256 of `bytes` (FIPS 180-4) via libcrypto.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = bytes.withUnsafeBufferPointer { input in SHA256(input.baseAddress, input.count, &digest) }
        return digest
    }
}

/// What a request may do: everything (no `auth` configured) or what its token grants.
enum Access: Sendable {
    case open
    case granted(AccessPolicy.Grant)

    func allows(_ scope: AccessPolicy.Scope, on store: String) -> Bool {
        switch self {
        case .open: true
        case .granted(let grant): grant.allows(scope, on: store)
        }
    }
}
