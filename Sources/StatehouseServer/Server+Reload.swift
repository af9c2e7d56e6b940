import Foundation
import StatehouseCore

/// SIGHUP: the configuration file read again, and what can change safely while the server runs applied.
///
/// Applied (each loop gets the new ``RuntimePolicy`` on its own thread, with `loop.execute`; a connection reads it
/// when it opens, a request when it is answered):
/// - `auth` (tokens and grants) and `cors` (allowed origins): from the next request on every connection;
/// - `limits` (`maxBodyBytes`, `maxHeaderBytes`, `maxHeaderFields`, `maxMessageBytes`: connections opened after
///   the reload; `maxStores`: the next `PUT`), `timeouts` and `streams` (`writeHighWaterBytes`, `maxLagSeconds`,
///   `sseHeartbeatMs`): connections opened after the reload;
/// - `log.level` (removing it goes back to `STATEHOUSE_LOG`'s level): at once, on every thread;
/// - a configured store's `log` (`stores[i].log`, matched by name): on the store's actor soon after, from the next
///   action it takes then (a store deleted since is left alone).
///
/// Reported as needing a restart, and otherwise ignored: `listen` (host, port, event loops, store executor: the
/// sockets and threads exist), `stores` other than their `log` (stores added, removed, or with another reducer,
/// state or durability) and `storage` (the stores are built and recovered at start),
/// `limits.maxConnections` (admission is sized against the file descriptor limit at start) and `streams.historySize`
/// (each store's history is sized when it is made).
///
/// One log line per changed item (`reload: auth: 2 tokens → 3 tokens`; never a token); a file that cannot be used
/// (unreadable, not JSON, an unknown key, a bad value) changes nothing and is one error line naming the file and the
/// problem.
extension Server {
    /// Reads the configuration file at `path` again (``ConfigurationLoader/load(path:)``), applies `adjusting` to it
    /// (the command line's `--host`/`--port`), and applies what may change at run time; see the extension's
    /// documentation. Reloads are serialized; does nothing unless the server is running.
    /// - Returns: whether the file could be used (false: nothing changed, the reason was logged).
    @discardableResult
    public func reload(from path: String, adjusting: (inout ServerConfiguration) -> Void = { _ in }) -> Bool {
        guard phase.withLock({ $0 == .running }) else { return false }
        var next: ServerConfiguration
        do {
            next = try ConfigurationLoader.load(path: path)
        } catch {
            logger.error("reload: \(error.description); keeping the running configuration")
            return false
        }
        adjusting(&next)
        applied.withLock { current in
            // What needs a restart keeps its running value, so it is reported again at every reload until restarted.
            let kept = Self.applicable(next, running: current)
            let changes = Self.differences(from: current, to: kept, defaultLogLevel: defaultLogLevel)
            let ignored = Self.differences(from: kept, to: next, defaultLogLevel: defaultLogLevel)
            let runningLogs = Self.logs(of: current.stores)
            for declaration in kept.stores where runningLogs[declaration.name] != declaration.log {
                stores[declaration.name]?.setLogging(declaration.log)
            }
            current = kept
            let policy = RuntimePolicy(kept)
            for context in contexts {
                context.loop.execute { context.policy = policy }
            }
            logger.changeLevel(to: kept.logLevel ?? defaultLogLevel)
            if changes.isEmpty && ignored.isEmpty {
                logger.info("reload: \(path): nothing changed")
            }
            for change in changes { logger.info("reload: \(change)") }
            for item in ignored { logger.warning("reload: \(item) needs a restart; ignored until then") }
        }
        return true
    }

    /// `next` with what needs a restart as `running` has it: the configuration a reload applies.
    static func applicable(_ next: ServerConfiguration, running: ServerConfiguration) -> ServerConfiguration {
        var kept = next
        kept.host = running.host
        kept.port = running.port
        kept.eventLoops = running.eventLoops
        kept.storeExecutor = running.storeExecutor
        let logs = Self.logs(of: next.stores)
        kept.stores = running.stores.map { declaration in
            var declaration = declaration
            declaration.log = logs[declaration.name] ?? declaration.log
            return declaration
        }
        kept.storage = running.storage
        kept.limits.maxConnections = running.limits.maxConnections
        kept.streams.historySize = running.streams.historySize
        return kept
    }

    /// Each declared store's `log`, by name (names are unique: the loader checks).
    static func logs(of stores: [ServerConfiguration.StoreDeclaration]) -> [String: StoreLogging] {
        Dictionary(stores.map { ($0.name, $0.log) }, uniquingKeysWith: { first, _ in first })
    }

    /// The changes from `old` to `new`, one line each (`auth: 2 tokens → 3 tokens`, `listen.port: 8080 → 9090`), no
    /// secret in any. From the running configuration to ``applicable(_:running:)``'s: what a reload applies; from that
    /// to the file's: what needs a restart.
    static func differences(
        from old: ServerConfiguration, to new: ServerConfiguration, defaultLogLevel: Logger.Level
    ) -> [String] {
        var lines: [String] = []
        func tokens(_ policy: AccessPolicy?) -> String {
            guard let policy else { return "off" }
            return policy.tokenCount == 1 ? "1 token" : "\(policy.tokenCount) tokens"
        }
        switch (old.auth, new.auth) {
        case (nil, nil): break
        case (let a?, let b?) where a.isSame(as: b): break
        case (let a?, let b?) where a.tokenCount == b.tokenCount:
            lines.append("auth: \(tokens(a)) → \(tokens(b)) (tokens or grants changed)")
        default: lines.append("auth: \(tokens(old.auth)) → \(tokens(new.auth))")
        }
        if old.cors != new.cors {
            func origins(_ policy: CORSPolicy?) -> String {
                policy.map { "[\($0.allowedOrigins.joined(separator: ", "))]" } ?? "off"
            }
            lines.append("cors.allowedOrigins: \(origins(old.cors)) → \(origins(new.cors))")
        }
        let (oldLevel, newLevel) = (old.logLevel ?? defaultLogLevel, new.logLevel ?? defaultLogLevel)
        if oldLevel != newLevel { lines.append("log.level: \(oldLevel) → \(newLevel)") }
        func compare<Value: Equatable>(_ name: String, _ a: Value, _ b: Value) {
            if a != b { lines.append("\(name): \(a) → \(b)") }
        }
        compare("limits.maxBodyBytes", old.limits.maxBodyBytes, new.limits.maxBodyBytes)
        compare("limits.maxHeaderBytes", old.limits.maxHeaderBytes, new.limits.maxHeaderBytes)
        compare("limits.maxHeaderFields", old.limits.maxHeaderFields, new.limits.maxHeaderFields)
        compare("limits.maxMessageBytes", old.limits.maxMessageBytes, new.limits.maxMessageBytes)
        compare("limits.maxStores", old.limits.maxStores, new.limits.maxStores)
        compare("limits.maxConnections", old.limits.maxConnections, new.limits.maxConnections)
        compare("streams.historySize", old.streams.historySize, new.streams.historySize)
        compare("streams.writeHighWaterBytes", old.streams.writeHighWaterBytes, new.streams.writeHighWaterBytes)
        compare("streams.maxLagSeconds", old.streams.maxLagSeconds, new.streams.maxLagSeconds)
        compare("streams.sseHeartbeatMs", old.streams.sseHeartbeatMs, new.streams.sseHeartbeatMs)
        compare("timeouts.headerTimeoutMs", old.timeouts.headerTimeoutMs, new.timeouts.headerTimeoutMs)
        compare("timeouts.bodyTimeoutMs", old.timeouts.bodyTimeoutMs, new.timeouts.bodyTimeoutMs)
        compare("timeouts.idleTimeoutMs", old.timeouts.idleTimeoutMs, new.timeouts.idleTimeoutMs)
        compare("timeouts.pingIntervalMs", old.timeouts.pingIntervalMs, new.timeouts.pingIntervalMs)
        compare("timeouts.pongTimeoutMs", old.timeouts.pongTimeoutMs, new.timeouts.pongTimeoutMs)
        compare("timeouts.writeStallMs", old.timeouts.writeStallMs, new.timeouts.writeStallMs)
        compare("listen.host", old.host, new.host)
        compare("listen.port", old.port, new.port)
        compare("listen.eventLoops", old.eventLoops, new.eventLoops)
        compare("listen.storeExecutor", old.storeExecutor.rawValue, new.storeExecutor.rawValue)
        let oldLogs = logs(of: old.stores)
        for store in new.stores {
            if let was = oldLogs[store.name], was != store.log {
                lines.append("stores.\(store.name).log: [\(was.names.joined(separator: ", "))] → [\(store.log.names.joined(separator: ", "))]")
            }
        }
        func withoutLogs(_ stores: [ServerConfiguration.StoreDeclaration]) -> [ServerConfiguration.StoreDeclaration] {
            stores.map { var declaration = $0; declaration.log = []; return declaration }
        }
        if withoutLogs(old.stores) != withoutLogs(new.stores) {
            func names(_ stores: [ServerConfiguration.StoreDeclaration]) -> String {
                "[\(stores.map(\.name).joined(separator: ", "))]"
            }
            lines.append("stores: \(names(old.stores)) → \(names(new.stores))\(names(old.stores) == names(new.stores) ? " (declarations changed)" : "")")
        }
        if old.storage != new.storage {
            lines.append("storage: \(old.storage?.path ?? "none") → \(new.storage?.path ?? "none")\(old.storage?.path == new.storage?.path ? " (settings changed)" : "")")
        }
        return lines
    }
}
