import Foundation
@testable import StatehouseServer
import Testing
import Locking

/// ``Logger`` without a server: the level threshold, metadata, and the standard-error line format.
@Suite struct LoggerTests {
    @Test func belowTheLevelNothingIsBuilt() {
        let handler = InMemoryLogHandler()
        let logger = Logger(level: .warning, handler: handler)
        let built = Locked(0)
        func message(_ text: String) -> String {
            built.withLock { $0 += 1 }
            return text
        }
        logger.debug(message("d"))
        logger.info(message("i"), metadata: ["k": message("v")])
        logger.warning(message("w"))
        logger.error(message("e"))
        #expect(built.withLock { $0 } == 2)
        #expect(handler.records.map(\.message) == ["w", "e"])
        #expect(handler.records.map(\.level) == [.warning, .error])
    }

    @Test func metadataKeepsItsOrderAndTheCallWins() {
        let handler = InMemoryLogHandler()
        let logger = Logger(handler: handler).with("store", "counter").with("conn", "3")
        logger.info("hello", metadata: ["conn": "4", "extra": "x"])
        let record = handler.records[0]
        #expect(record.metadata.pairs.map(\.key) == ["store", "conn", "extra"])
        #expect(record.metadata["conn"] == "4")
        #expect(record.description == "info hello store=counter conn=4 extra=x")
        var metadata: Logger.Metadata = ["a": "1", "b": "2"]
        metadata["a"] = nil
        #expect(metadata == ["b": "2"])
    }

    @Test func standardErrorLinesAreOneLineWithQuotedValues() {
        let time = Date(timeIntervalSince1970: 1_796_529_600)  // 2026-12-06T04:00:00Z
        let record = LogRecord(
            level: .warning, message: "two\nlines", metadata: ["store": "counter", "path": "/tmp/my data", "empty": ""])
        #expect(
            StandardErrorLogHandler.format(record, at: time)
                == #"2026-12-06T04:00:00Z warning two\nlines store=counter path="/tmp/my data" empty="""#)
        #expect(StandardErrorLogHandler.format(LogRecord(level: .info, message: "up"), at: time) == "2026-12-06T04:00:00Z info up")
        // Every control character and line separator is escaped, in the message and in values: no second line, no
        // terminal escape sequence.
        let hostile = LogRecord(
            level: .info, message: "a\u{0B}b\u{1B}[31mc\u{2028}d\r\n", metadata: ["v": "x\u{85}y"])
        #expect(
            StandardErrorLogHandler.format(hostile, at: time)
                == #"2026-12-06T04:00:00Z info a\u{b}b\u{1b}[31mc\u{2028}d\r\n v="x\u{85}y""#)
    }

    /// `STATEHOUSE_LOG_FORMAT=json`: one RFC 8259 object, time in RFC 3339 UTC with milliseconds, metadata as members,
    /// hostile text escaped (no second line).
    @Test func jsonLinesAreOneObjectWithTheMetadataAsMembers() throws {
        let time = Date(timeIntervalSince1970: 1_796_529_600.125)  // 2026-12-06T04:00:00.125Z
        let record = LogRecord(
            level: .warning, message: "two\nlines \"quoted\" \u{1B}[31m",
            metadata: ["store": "counter", "conn": "7", "request_id": "r-1", "level": "spoofed"])
        let line = String(decoding: record.jsonLine(at: time), as: UTF8.self)
        #expect(!line.contains("\n"))
        #expect(line.hasPrefix(#"{"time":"2026-12-06T04:00:00.125Z","level":"warning","message":"two\nlines \"quoted\" \u001b[31m""#))
        let object = try jsonObject(line)
        #expect(object["message"] as? String == "two\nlines \"quoted\" \u{1B}[31m")
        #expect(object["level"] as? String == "warning")
        #expect(object["store"] as? String == "counter")
        #expect(object["conn"] as? String == "7")
        #expect(object["request_id"] as? String == "r-1")
        #expect(object.count == 6)
        #expect(String(decoding: LogRecord.rfc3339Milliseconds(Date(timeIntervalSince1970: 0.999)), as: UTF8.self)
            == "1970-01-01T00:00:00.999Z")
        #expect(LogFormat(name: "JSON") == .json && LogFormat(name: "yaml") == nil)
        #expect(try Logger.fromEnvironment(["STATEHOUSE_LOG_FORMAT": "json"]).handler is StandardErrorLogHandler)
        #expect(throws: LogSettingError.self) { try Logger.fromEnvironment(["STATEHOUSE_LOG_FORMAT": "yaml"]) }
    }

    /// ``Logger/changeLevel(to:)`` reaches every copy (the server's sessions and stores hold copies); setting `level`
    /// detaches one copy.
    @Test func changeLevelReachesEveryCopy() {
        let handler = InMemoryLogHandler()
        let root = Logger(level: .info, handler: handler)
        let derived = root.with("store", "counter")
        var detached = root
        detached.level = .error
        derived.changeLevel(to: .debug)
        #expect(root.level == .debug && derived.level == .debug && detached.level == .error)
        root.debug("now written")
        #expect(handler.records.map(\.message) == ["now written"])
    }

    @Test func configurationErrorsAreOneLine() {
        let error = ConfigurationError(path: "/tmp/x\nfake", location: "x\u{1B}[31m", problem: "unknown key")
        #expect(error.description == #"/tmp/x\nfake: x\u{1b}[31m: unknown key"#)
    }

    @Test func levelNames() throws {
        #expect(Logger.Level(name: "DEBUG") == .debug)
        #expect(Logger.Level(name: "warn") == .warning)
        #expect(Logger.Level(name: "loud") == nil)
        #expect(Logger.Level.allCases.map(\.description) == ["debug", "info", "warning", "error"])
        #expect(try Logger.fromEnvironment(["STATEHOUSE_LOG": "Debug"]).level == .debug)
        #expect(try Logger.fromEnvironment([:]).level == .info)
    }

    @Test func waitingForARecordThatNeverComesEndsAtTheDeadline() async {
        let handler = InMemoryLogHandler()
        let started = ContinuousClock.now
        let record = await handler.waitForRecord(timeout: .milliseconds(50)) { $0.message == "never" }
        #expect(record == nil)
        #expect(ContinuousClock.now - started >= .milliseconds(50))
    }

    @Test func waitingForARecordEndsWhenItIsLogged() async {
        let handler = InMemoryLogHandler()
        let logger = Logger(handler: handler)
        async let record = handler.waitForRecord(timeout: .seconds(10)) { $0.message == "now" }
        // Logged from another thread, possibly before the wait began: either way the wait sees it.
        Thread.detachNewThread { logger.info("now") }
        #expect(await record?.message == "now")
    }
}
