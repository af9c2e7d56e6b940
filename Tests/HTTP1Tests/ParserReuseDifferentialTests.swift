import HTTP1
import Testing
import StatehouseTestClients

/// One parser reuses its field list, strings and body arrays from request to request (in place when the previous
/// request is gone, copying on write while it is still held). Whatever the mix of repeated and changed fields and
/// bodies, and however the bytes are split, a reused parser must give exactly the events a fresh parser gives for
/// each request alone.
@Suite struct ParserReuseDifferentialTests {
    static let names = ["Host", "host", "HOST", "Content-Type", "Accept", "X-A", "X-Bb", "Idempotency-Key"]
    static let values = ["a", "b", "application/json", "", "  padded\t", "127.0.0.1:8080", "caf\u{E9}"]
    static let targets = ["/", "/a", "/a?b=1", "/stores/counter/actions", "/stores/counter/actions?wait=settled", "http://h.test/x?y"]
    static let bodies = ["", "{}", #"{"type":"increment"}"#, #"{"type":"decrement"}"#, String(repeating: "z", count: 600)]

    /// One random keep-alive request as bytes.
    static func request(_ random: inout SeededGenerator) -> [UInt8] {
        let method = ["GET", "POST", "PUT"][Int(random.next() % 3)]
        var text = "\(method) \(targets[Int(random.next() % UInt64(targets.count))]) HTTP/1.1\r\n"
        for _ in 0..<Int(random.next() % 5) {
            text += "\(names[Int(random.next() % UInt64(names.count))]): \(values[Int(random.next() % UInt64(values.count))])\r\n"
        }
        var body = bodies[Int(random.next() % UInt64(bodies.count))]
        if random.next() % 4 == 0 {  // a short body over a small alphabet: equal and unequal bodies of one length
            body = String((0..<Int(random.next() % 4)).map { _ in "xy"[random.next() % 2 == 0 ? "xy".startIndex : "xy".index(after: "xy".startIndex)] })
        }
        if random.next() % 5 == 0 {
            let half = body.utf8.count / 2
            let parts = [Array(body.utf8.prefix(half)), Array(body.utf8.dropFirst(half))].filter { !$0.isEmpty }
            text += "Transfer-Encoding: chunked\r\n\r\n"
            var bytes = Array(text.utf8)
            for part in parts { bytes += Array("\(String(part.count, radix: 16))\r\n".utf8) + part + Array("\r\n".utf8) }
            return bytes + Array("0\r\n\r\n".utf8)
        }
        text += body.isEmpty && random.next() % 2 == 0 ? "\r\n" : "Content-Length: \(body.utf8.count)\r\n\r\n"
        return Array(text.utf8) + Array(body.utf8)
    }

    /// The events of `bytes` parsed alone by a fresh parser.
    static func alone(_ bytes: [UInt8]) -> [HTTPParseEvent] {
        parse([bytes])
    }

    @Test func pipelinedRequestsSplitAnywhereGiveTheEventsOfEachAlone() {
        var random = SeededGenerator(seed: 0x5EED_0001)
        for round in 0..<400 {
            let requests = (0..<Int(1 + random.next() % 8)).map { _ in Self.request(&random) }
            let expected = requests.flatMap(Self.alone)
            let input = requests.flatMap { $0 }
            var cuts = (0..<Int(random.next() % 4)).map { _ in Int(random.next() % UInt64(input.count + 1)) }.sorted()
            cuts.append(input.count)
            let parser = HTTPRequestParser(limits: roomyLimits)
            var events: [HTTPParseEvent] = []
            var start = 0
            for cut in cuts {
                let chunk = Array(input[start..<cut])
                start = cut
                if round % 2 == 0 {
                    chunk.withUnsafeBytes { parser.feed($0, appendingTo: &events) }
                } else {
                    events += chunk.withUnsafeBytes { parser.feed($0) }
                }
            }
            #expect(events == expected, "round \(round)")
        }
    }

    @Test func requestsParsedOneAtATimeAndDroppedGiveTheEventsOfEachAlone() {
        // Each request's events are compared, then dropped, so the parser reuses its storage in place.
        var random = SeededGenerator(seed: 0x5EED_0002)
        let parser = HTTPRequestParser(limits: roomyLimits)
        var queue: [HTTPParseEvent] = []
        for round in 0..<2000 {
            let request = Self.request(&random)
            request.withUnsafeBytes { parser.feed($0, appendingTo: &queue) }
            #expect(queue == Self.alone(request), "round \(round)")
            queue.removeAll(keepingCapacity: true)
        }
    }

    @Test func feedAppendingKeepsWhatTheArrayHeld() throws {
        let parser = HTTPRequestParser(limits: roomyLimits)
        var events: [HTTPParseEvent] = [.continueExpected]
        Array("GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n".utf8).withUnsafeBytes { parser.feed($0, appendingTo: &events) }
        #expect(events.count == 3)
        #expect(events.first == .continueExpected)
        #expect(events.dropFirst().compactMap { requestOf($0)?.target } == ["/a", "/b"])
        Array("GET /c HTTP/1.1\r\nX: \u{1}\r\n\r\n".utf8).withUnsafeBytes { parser.feed($0, appendingTo: &events) }
        #expect(failureOf(events.last)?.status == 400)
        let done = events.count
        Array("GET /d HTTP/1.1\r\n\r\n".utf8).withUnsafeBytes { parser.feed($0, appendingTo: &events) }
        #expect(events.count == done, "a finished parser appends nothing")
    }

    @Test func aBodyEqualToThePreviousOneIsTheSameValue() {
        let one = "POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nab"
        let other = "POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nac"
        let bodies = parse(one + one + other + one + "GET / HTTP/1.1\r\n\r\n" + one).compactMap { requestOf($0)?.body }
        #expect(bodies == [[0x61, 0x62], [0x61, 0x62], [0x61, 0x63], [0x61, 0x62], [], [0x61, 0x62]])
    }
}
