import JSON

extension ConfigReader {
    /// `auth`: `[{"token"|"tokenSha256": "…", "stores": ["counter","todo*"], "scopes": ["read","write","admin"]}]`.
    func auth(_ value: JSONValue) throws(ConfigurationError) -> AccessPolicy {
        guard case .array(let list) = value, !list.isEmpty else {
            throw fail("auth", "must be a non-empty array of {\"token\": …, \"stores\": […], \"scopes\": […]}")
        }
        var entries: [(digest: [UInt8], grant: AccessPolicy.Grant)] = []
        for (index, item) in list.enumerated() {
            let at = "auth[\(index)]"
            let object = try self.object(item, at: at)
            try allowOnly(["token", "tokenSha256", "stores", "scopes"], in: object, at: at)
            let digest: [UInt8]
            switch (object["token"], object["tokenSha256"]) {
            case (let token?, nil):
                let text = try string(token, at: "\(at).token")
                guard text.count >= 16 else { throw fail("\(at).token", "is too short; use at least 16 random characters") }
                digest = AccessPolicy.sha256(Array(text.utf8))
            case (nil, let hash?):
                let text = try string(hash, at: "\(at).tokenSha256")
                guard let bytes = Self.hexBytes(text), bytes.count == 32 else {
                    throw fail("\(at).tokenSha256", "must be 64 hex digits (the SHA-256 of the token)")
                }
                digest = bytes
            default:
                throw fail(at, "give exactly one of \"token\" and \"tokenSha256\"")
            }
            var stores = ["*"]
            if let value = object["stores"] {
                guard let names = nonEmptyStrings(value) else {
                    throw fail("\(at).stores", "must be a non-empty array of store names or prefixes ending in *")
                }
                stores = names
            }
            guard let names = nonEmptyStrings(object["scopes"]) else {
                throw fail("\(at).scopes", "must list scopes: read, write, admin, metrics")
            }
            var scopes: Set<AccessPolicy.Scope> = []
            for name in names {
                guard let scope = AccessPolicy.Scope(rawValue: name) else {
                    throw fail("\(at).scopes", "unknown scope \"\(name)\"; use read, write, admin, metrics")
                }
                scopes.insert(scope)
            }
            entries.append((digest, AccessPolicy.Grant(stores: stores, scopes: scopes)))
        }
        return AccessPolicy(entries: entries)
    }

    /// `cors`: `{"allowedOrigins": ["https://app.example", …]}` (or `["*"]`).
    func cors(_ value: JSONValue) throws(ConfigurationError) -> CORSPolicy {
        let object = try self.object(value, at: "cors")
        try allowOnly(["allowedOrigins"], in: object, at: "cors")
        guard let origins = nonEmptyStrings(object["allowedOrigins"]) else {
            throw fail("cors.allowedOrigins", "must be a non-empty array of origins such as \"https://app.example\"")
        }
        return CORSPolicy(allowedOrigins: origins)
    }

    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
