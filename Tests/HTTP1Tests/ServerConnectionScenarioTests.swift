import HTTP1
import Testing

/// The connection rules over sequences of events, in memory: pipelining, the queue bound, keep-alive, 100-continue,
/// timeouts, backpressure, shutdown and upgrade.
@Suite struct ServerConnectionScenarioTests {
    private func fresh() -> Machine {
        var connection = Machine(configuration: machineConfiguration)
        #expect(drain(&connection) == [.armTimer(.idle, milliseconds: 5_000)])
        return connection
    }

    private func feed(_ text: String, to connection: inout Machine, parser: HTTPRequestParser) -> [Action] {
        Array(text.utf8).withUnsafeBytes { connection.received($0, parser: parser) }
        return drain(&connection)
    }

    @Test func pipelinedRequestsAreDeliveredOneAtATimeInOrder() {
        var connection = fresh()
        for path in ["/1", "/2", "/3"] { connection.received(.request(getRequest(path))) }
        #expect(drain(&connection) == [.deliver(getRequest("/1"))])
        #expect(connection.queuedCount == 2)
        #expect(connection.responseStarted(keepAlive: true) == true)
        #expect(drain(&connection) == [.deliver(getRequest("/2"))])
        #expect(connection.responseStarted(keepAlive: true) == true)
        #expect(drain(&connection) == [.deliver(getRequest("/3"))])
        #expect(connection.responseStarted(keepAlive: true) == true)
        #expect(drain(&connection) == [.armTimer(.idle, milliseconds: 5_000)])
    }

    @Test func realBytesOfThreePipelinedRequestsGiveThreeDeliveries() {
        var connection = fresh()
        let parser = HTTPRequestParser(limits: roomyLimits)
        let one = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
        let actions = feed(one + one + one, to: &connection, parser: parser)
        #expect(actions.count == 1)
        guard case .deliver(let first)? = actions.first else { return #expect(Bool(false)) }
        #expect(first.path == "/a")
        var delivered = 1
        while connection.responseStarted(keepAlive: first.keepAlive) == true {
            let next = drain(&connection)
            if case .deliver? = next.first { delivered += 1 } else { break }
        }
        #expect(delivered == 3)
    }

    @Test func readingPausesAtTheQueueBoundAndResumesOnceIdleBelowIt() {
        var connection = fresh()
        connection.received(.request(getRequest("/0")))
        #expect(drain(&connection) == [.deliver(getRequest("/0"))])
        for index in 1...4 { connection.received(.request(getRequest("/\(index)"))) }
        #expect(drain(&connection) == [.pauseReading])
        #expect(connection.isReadingPaused)
        // Each response takes the next; reading resumes only once idle with fewer than the bound queued.
        for index in 1...4 {
            #expect(connection.responseStarted(keepAlive: true) == true)
            #expect(drain(&connection) == [.deliver(getRequest("/\(index)"))])
        }
        #expect(connection.responseStarted(keepAlive: true) == true)
        #expect(drain(&connection) == [.resumeReading, .armTimer(.idle, milliseconds: 5_000)])
    }

    @Test func aClosingRequestClosesAfterItsResponse() {
        var connection = fresh()
        connection.received(.request(getRequest(keepAlive: false)))
        _ = drain(&connection)
        #expect(connection.responseStarted(keepAlive: false) == false)
        #expect(connection.state == .closing)
    }

    @Test func http10WithoutKeepAliveClosesAndWithItStaysOpen() {
        for (text, open) in [("GET / HTTP/1.0\r\n\r\n", false), ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true)] {
            var connection = fresh()
            let actions = feed(text, to: &connection, parser: HTTPRequestParser(limits: roomyLimits))
            guard case .deliver(let request)? = actions.first else { return #expect(Bool(false), "\(text)") }
            #expect(connection.responseStarted(keepAlive: request.keepAlive) == open)
        }
    }

    @Test func aRefusalClosesEvenWhenTheOwnerAsksToKeepTheConnection() {
        var connection = fresh()
        connection.received(.request(getRequest(host: false)))
        #expect(drain(&connection) == [.refuse(.invalidHost, headOnly: false)])
        #expect(connection.responseStarted(keepAlive: true) == false)
        #expect(connection.state == .closing)
    }

    @Test func anHTTP10RequestMayLeaveHostOutButNotRepeatIt() {
        let none = HTTPRequest(method: "GET", target: "/", versionMinor: 0)
        let twice = HTTPRequest(
            method: "GET", target: "/", versionMinor: 0,
            fields: HTTPFields([HTTPField(name: "Host", value: "a"), HTTPField(name: "host", value: "b")]))
        #expect(Machine.hasValidHost(none))
        #expect(!Machine.hasValidHost(twice))
        #expect(!Machine.hasValidHost(HTTPRequest(method: "GET", target: "/")))
    }

    @Test func aHalfClosedPeerGetsEveryAnswerAndTheLastCloses() {
        var connection = fresh()
        connection.received(.request(getRequest("/1")))
        connection.received(.request(getRequest("/2")))
        _ = drain(&connection)
        connection.inputEnded([])
        #expect(drain(&connection) == [])
        #expect(connection.responseStarted(keepAlive: true) == true)
        #expect(drain(&connection) == [.deliver(getRequest("/2"))])
        #expect(connection.responseStarted(keepAlive: true) == false)
        #expect(connection.state == .closing)
    }

    @Test func shutdownMakesTheResponseInProgressClose() {
        var connection = fresh()
        connection.received(.request(getRequest()))
        _ = drain(&connection)
        connection.shutDown()
        #expect(drain(&connection) == [])
        #expect(connection.responseStarted(keepAlive: true) == false)
    }

    @Test func continueIsSentOnlyWhenNothingIsAheadOfTheRequest() {
        var connection = fresh()
        let parser = HTTPRequestParser(limits: roomyLimits)
        let head = "POST /a HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"
        #expect(feed(head, to: &connection, parser: parser) == [.sendContinue, .armTimer(.body, milliseconds: 2_000)])
        let actions = feed("ok", to: &connection, parser: parser)
        guard case .deliver(let request)? = actions.first else { return #expect(Bool(false)) }
        #expect(request.body == Array("ok".utf8))
        // While that request is answered, a second one asking to continue gets no 100 (it would overtake).
        #expect(feed(head, to: &connection, parser: parser) == [])
    }

    @Test func anIncompleteHeadTimesOutWith408AndCloses() {
        var connection = fresh()
        let parser = HTTPRequestParser(limits: roomyLimits)
        #expect(feed("GET / HTTP/1.1\r\n", to: &connection, parser: parser) == [.armTimer(.head, milliseconds: 1_000)])
        connection.timerFired(.idle)  // not the running timeout: ignored
        #expect(drain(&connection) == [])
        connection.timerFired(.head)
        #expect(drain(&connection) == [.refuse(.requestTimeout("header fields"), headOnly: false)])
        #expect(connection.responseStarted(keepAlive: true) == false)
        #expect(connection.state == .closing)
    }

    @Test func anIncompleteBodyTimesOutWith408() {
        var connection = fresh()
        let parser = HTTPRequestParser(limits: roomyLimits)
        _ = feed("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\nab", to: &connection, parser: parser)
        connection.timerFired(.body)
        #expect(drain(&connection) == [.refuse(.requestTimeout("body"), headOnly: false)])
    }

    @Test func theIdleTimeoutRestartsAfterEveryResponse() {
        var connection = fresh()
        for _ in 0..<3 {
            connection.received(.request(getRequest()))
            #expect(drain(&connection) == [.deliver(getRequest())])
            _ = connection.responseStarted(keepAlive: true)
            #expect(drain(&connection) == [.armTimer(.idle, milliseconds: 5_000)])
        }
    }

    @Test func pausedWritesHoldQueuedRequestsAndReadingUntilResumed() {
        var connection = fresh()
        connection.received(.request(getRequest("/1")))
        connection.received(.request(getRequest("/2")))
        _ = drain(&connection)
        connection.writesPaused()
        _ = connection.responseStarted(keepAlive: true)
        #expect(drain(&connection) == [.pauseReading])
        connection.writesResumed()
        #expect(drain(&connection) == [.deliver(getRequest("/2"))])
        _ = connection.responseStarted(keepAlive: true)
        #expect(drain(&connection) == [.resumeReading, .armTimer(.idle, milliseconds: 5_000)])
    }

    @Test func anUpgradeHandsOffAndLaterEventsAreIgnored() {
        var connection = fresh()
        let parser = HTTPRequestParser(limits: roomyLimits)
        let handshake = "GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n\u{81}"
        let actions = feed(handshake, to: &connection, parser: parser)
        guard case .upgrade(let request, let leftover)? = actions.first else { return #expect(Bool(false)) }
        #expect(request.path == "/ws")
        #expect(leftover == Array("\u{81}".utf8))
        connection.handedOff()
        connection.received(.request(getRequest()))
        connection.timerFired(.idle)
        connection.inputEnded([])
        #expect(drain(&connection) == [])
        #expect(connection.state == .handedOff)
    }

    @Test func anUnparsableRequestIsRefusedAfterTheRequestsBeforeIt() {
        var connection = fresh()
        let parser = HTTPRequestParser(limits: roomyLimits)
        let actions = feed("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n", to: &connection, parser: parser)
        #expect(actions.first == .deliver(HTTPRequest(method: "GET", target: "/1", fields: HTTPFields([HTTPField(name: "Host", value: "x")]))))
        #expect(connection.responseStarted(keepAlive: true) == true)
        guard case .refuse(let failure, headOnly: false)? = drain(&connection).first else { return #expect(Bool(false)) }
        #expect(failure.status == 400)
        #expect(connection.responseStarted(keepAlive: true) == false)
    }
}
