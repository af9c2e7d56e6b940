import Foundation
@testable import StatehouseServer
import StatehouseTestClients
import Testing

extension ServerTests {
    /// A deleted store is freed when it is deleted, whoever looked it up before.
    @Suite struct StoreDeletionTests {
        /// Weak references to a hosted store and its stream (history and subscribers): what a deletion must free.
        final class Watched: @unchecked Sendable {
            weak var store: HostedStore?
            weak var fanout: StoreFanout?
            init?(_ store: HostedStore?) {
                guard let store else { return nil }
                self.store = store
                fanout = store.fanout
            }
            var freed: Bool { store == nil && fanout == nil }
        }

        @Test func deletedStoreIsFreedAlthoughAKeepAliveConnectionLookedItUp() async throws {
            // Every check is made here, not on the client's thread, so a failure is recorded against this test.
            let outcome = try await TestServer.with { server in
                let port = server.port
                let registry = server.server.registry
                return try await blocking { () -> [String: Bool] in
                    let client = try TestHTTPClient(port: port)
                    defer { client.close() }
                    var outcome: [String: Bool] = [:]
                    outcome["created"] = try client.request("PUT", "/stores/doomed", body: #"{"reducer":"TodoList"}"#).status == 201
                    let add = #"{"type":"add","payload":{"text":"milk"}}"#
                    outcome["changed"] = try client.request("POST", "/stores/doomed/actions", body: add).status == 200
                    // Batches too (their envelopes pass through the store's backlog).
                    let batch = "[" + Array(repeating: add, count: 50).joined(separator: ",") + "]"
                    for _ in 0..<20 { _ = try client.request("POST", "/stores/doomed/actions", body: batch) }
                    // The connection's last lookup by name is this store (its memo).
                    outcome["read"] = try client.request("GET", "/stores/doomed").status == 200
                    // Made inside a call, so no strong reference outlives it in this frame.
                    guard let watched = Watched(registry["doomed"]) else { return outcome }
                    outcome["deleted"] = try client.request("DELETE", "/stores/doomed").status == 204
                    // The keep-alive connection stays open and idle: nothing replaces its memo.
                    let deadline = ContinuousClock.now + .seconds(5)
                    while !watched.freed, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
                    outcome["store freed"] = watched.store == nil
                    outcome["history freed"] = watched.fanout == nil
                    outcome["gone"] = try client.request("GET", "/stores/doomed").status == 404
                    return outcome
                }
            }
            for step in ["created", "changed", "read", "deleted", "store freed", "history freed", "gone"] {
                #expect(outcome[step] == true, "\(step)")
            }
        }
    }
}
