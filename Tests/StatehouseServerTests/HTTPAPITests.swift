import Foundation
import StatehouseTestClients
import Testing

extension ServerTests {
    @Suite struct HTTPAPITests {
        @Test func healthAndStoreList() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let health = try client.request("GET", "/healthz")
                #expect(health.status == 200)
                #expect(health.bodyText == #"{"status":"ok"}"#)
                #expect(health.field("Content-Type") == "application/json")
                let list = try client.request("GET", "/stores")
                #expect(list.bodyText == #"{"stores":[{"name":"counter","reducer":"Counter","version":0},{"name":"search","reducer":"Search","version":0},{"name":"todos","reducer":"TodoList","version":0}]}"#)
            }
        }

        @Test func postActionReturnsVersionAndStateAfterIt() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let first = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#)
                #expect(first.status == 200)
                #expect(first.bodyText == #"{"store":"counter","version":1,"state":{"count":1}}"#)
                let add = try client.request("POST", "/stores/counter/actions", body: #"{"type":"add","payload":{"amount":5}}"#)
                #expect(add.bodyText == #"{"store":"counter","version":2,"state":{"count":6}}"#)
                let unchanged = try client.request("POST", "/stores/counter/actions", body: #"{"type":"add","payload":{"amount":0}}"#)
                #expect(unchanged.bodyText == #"{"store":"counter","version":2,"state":{"count":6}}"#)
                let read = try client.request("GET", "/stores/counter")
                #expect(read.bodyText == #"{"store":"counter","version":2,"state":{"count":6}}"#)
                let todo = try client.request("POST", "/stores/todos/actions", body: #"{"type":"add","payload":{"text":"milk"}}"#)
                #expect(todo.bodyText == #"{"store":"todos","version":1,"state":{"items":[{"done":false,"id":1,"text":"milk"}],"nextID":2}}"#)
            }
        }

        @Test func counterSaturatesInsteadOfTrapping() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let big = #"{"type":"add","payload":{"amount":9223372036854775807}}"#
                _ = try client.request("POST", "/stores/counter/actions", body: big)
                let again = try client.request("POST", "/stores/counter/actions", body: big)
                #expect(again.bodyText == #"{"store":"counter","version":1,"state":{"count":9223372036854775807}}"#)
            }
        }

        @Test(arguments: [
            (#"{"type":"increment""#, 400, "invalid_json"),
            (#"[1,2]"#, 400, "invalid_action"),
            (#"{"payload":{}}"#, 400, "invalid_action"),
            (#"{"type":"explode"}"#, 400, "invalid_action"),
            (#"{"type":"add"}"#, 400, "invalid_action"),
            (#"{"type":"add","payload":{"amount":"five"}}"#, 400, "invalid_action"),
            (#"{"type":7}"#, 400, "invalid_action"),
            (#"{"type":"add","payload":{"amount":1.5}}"#, 400, "invalid_action"),
            (#"{"type":"add","payload":{"amount":99999999999999999999}}"#, 400, "invalid_action"),
            ("", 400, "invalid_json"),
            (#"{"type":"increment",}"#, 400, "invalid_json"),  // RFC 8259: no trailing commas
            (#"[{"type":"increment"},]"#, 400, "invalid_json"),
            (#"{"type":"increment","payload":"x"}"#, 400, "invalid_action"),
        ])
        func badActionsAreExplained(body: String, status: Int, code: String) async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let response = try client.request("POST", "/stores/counter/actions", body: body)
                #expect(response.status == status)
                let error = try #require(try response.json()["error"] as? [String: Any])
                #expect(error["code"] as? String == code)
                #expect((error["message"] as? String)?.isEmpty == false)
                // The connection stays usable and nothing changed.
                #expect(try client.request("GET", "/stores/counter").bodyText == #"{"store":"counter","version":0,"state":{"count":0}}"#)
            }
        }

        /// In a batch, a bad element is named by its position, and nothing of the batch is applied.
        @Test func aBadElementOfABatchIsNamed() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                for (body, position) in [
                    (#"[{"type":"increment"},{"type":"explode"}]"#, "Action 1 of the batch"),
                    (#"[{"type":"increment"},{"type":"increment"},{"payload":{}}]"#, "Action 2 of the batch"),
                    (#"[{"type":"increment"},{"type":"add","payload":{"amount":"five"}}]"#, "\"[1].payload.amount\""),
                ] {
                    let response = try client.request("POST", "/stores/counter/actions", body: body)
                    #expect(response.status == 400)
                    let error = try #require(try response.json()["error"] as? [String: Any])
                    #expect((error["message"] as? String)?.contains(position) == true, "\(error)")
                }
                #expect(try client.request("GET", "/stores/counter").bodyText == #"{"store":"counter","version":0,"state":{"count":0}}"#)
            }
        }

        @Test func unknownActionListsTheStoresActionTypes() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let response = try client.request("POST", "/stores/todos/actions", body: #"{"type":"explode"}"#)
                let message = try #require((try response.json()["error"] as? [String: Any])?["message"] as? String)
                #expect(message.contains("add, toggle, remove, clearCompleted"))
                #expect(message.contains("explode"))
            }
        }

        @Test func routingErrors() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let missingStore = try client.request("GET", "/stores/nope")
                #expect(missingStore.status == 404)
                #expect((try missingStore.json()["error"] as? [String: Any])?["code"] as? String == "store_not_found")
                let missingPath = try client.request("GET", "/nothing/here")
                #expect(missingPath.status == 404)
                #expect((try missingPath.json()["error"] as? [String: Any])?["code"] as? String == "not_found")
                let wrongMethod = try client.request("DELETE", "/stores/counter/actions")
                #expect(wrongMethod.status == 405)
                #expect(wrongMethod.field("Allow") == "POST")
                #expect((try wrongMethod.json()["error"] as? [String: Any])?["code"] as? String == "method_not_allowed")
                let head = try client.request("HEAD", "/healthz")
                #expect(head.status == 200)
                #expect(head.body.isEmpty)
                #expect(try client.request("POST", "/stores/nope/actions", body: "{}").status == 404)
            #expect(try client.request("GET", "/stores/nope/ws").status == 404)
            #expect(try client.request("GET", "http://example.test/stores/counter").status == 200)
            }
        }
    }
}
