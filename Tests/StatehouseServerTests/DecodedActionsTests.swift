import StatehouseTestClients
@testable import StatehouseServer
import Testing

/// A reducer type's stores reuse the actions of small bodies they decoded before (``DecodedActions``).
struct DecodedActionsTests {
    @Test func aKeptBodyGivesItsActionAndOtherBytesDoNot() {
        let table = DecodedActions<String>()
        let body = Array(#"{"type":"increment"}"#.utf8)
        #expect(table.action(body: body) == nil)
        table.keep("increment", body: body)
        #expect(table.action(body: body) == "increment")
        #expect(table.action(body: Array(#"{"type":"increment" }"#.utf8)) == nil)  // other bytes, other key
        #expect(table.action(body: Array(#"{"type":"incremenT"}"#.utf8)) == nil)  // same length, other bytes
        #expect(table.action(body: []) == nil)
    }

    @Test func bodiesOverTheLimitAreNotKept() {
        let table = DecodedActions<Int>()
        let big = [UInt8](repeating: UInt8(ascii: " "), count: DecodedActions<Int>.maxBodyBytes + 1)
        table.keep(1, body: big)
        #expect(table.action(body: big) == nil)
        let largest = Array(big.dropLast())
        table.keep(2, body: largest)
        #expect(table.action(body: largest) == 2)
    }

    @Test func aFullTableStartsAgain() {
        let table = DecodedActions<Int>()
        let capacity = DecodedActions<Int>.capacity
        for index in 0..<capacity { table.keep(index, body: Array("b\(index)".utf8)) }
        #expect(table.action(body: Array("b0".utf8)) == 0)
        #expect(table.action(body: Array("b\(capacity - 1)".utf8)) == capacity - 1)
        table.keep(-1, body: Array("new".utf8))  // the table was full: emptied, then this one kept
        #expect(table.action(body: Array("new".utf8)) == -1)
        #expect(table.action(body: Array("b0".utf8)) == nil)
    }

    /// Over HTTP: the same bytes posted again reduce the same action each time (with a payload too), a batch and a
    /// bad body are answered as before, and the error of a bad body is not kept as an action.
    @Test func repeatedBodiesOverHTTP() async throws {
        try await TestServer.with { server in
            let client = try TestHTTPClient(port: server.port)
            defer { client.close() }
            for version in 1...3 {
                let answer = try client.request("POST", "/stores/counter/actions", body: #"{"type":"add","payload":{"amount":2}}"#)
                #expect(answer.bodyText == #"{"store":"counter","version":\#(version),"state":{"count":\#(2 * version)}}"#)
            }
            for _ in 1...2 {
                let batch = try client.request("POST", "/stores/counter/actions", body: #"[{"type":"increment"}]"#)
                #expect(batch.status == 200)
                let bad = try client.request("POST", "/stores/counter/actions", body: #"{"type":"nope"}"#)
                #expect(bad.status == 400)
            }
            let read = try client.request("GET", "/stores/counter")
            #expect(read.bodyText == #"{"store":"counter","version":5,"state":{"count":8}}"#)
            for _ in 1...2 {
                let add = try client.request("POST", "/stores/todos/actions", body: #"{"type":"add","payload":{"text":"a"}}"#)
                #expect(add.status == 200)
            }
            let todos = try client.request("GET", "/stores/todos")
            #expect(todos.bodyText.contains(#""id":2"#))
        }
    }
}
