import FlintCore
import FlintServerTestSupport
import Foundation
import Logging
import Synchronization
import Testing

@testable import FlintServer

/// The lines a handler wrote.
private final class Lines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

@Suite("JSON log lines")
struct JSONLogHandlerTests {
    @Test("one JSON object per line: time, level, message, metadata (merged, nested), source, label")
    func lineShape() throws {
        let lines = Lines()
        var handler = JSONLogHandler(label: "flint", metadataProvider: .init { ["request": "r-1", "seq": "7"] }) { lines.append($0) }
        handler.logLevel = .debug
        handler[metadataKey: "node"] = "a"
        handler[metadataKey: "seq"] = "1"
        var logger = Logger(label: "flint") { _ in handler }
        logger.logLevel = .debug
        logger.info(
            "sms not delivered",
            metadata: ["seq": "9", "kinds": ["a", "b"], "detail": ["status": "429"], "count": .stringConvertible(3)])
        logger.trace("below the level")
        logger.error("quote \" backslash \\ newline \n tab \t bell \u{07} é 🙂")

        let written = lines.all
        #expect(written.count == 2)
        #expect(written.allSatisfy { $0.hasSuffix("}\n") && $0.filter { $0 == "\n" }.count == 1 })
        let first = try JSONValue(parsing: Array(written[0].utf8))
        #expect(first["level"]?.stringValue == "info")
        #expect(first["message"]?.stringValue == "sms not delivered")
        #expect(first["label"]?.stringValue == "flint")
        #expect(first["source"]?.stringValue == "FlintServerTests")
        let metadata = try #require(first["metadata"])
        #expect(metadata["node"]?.stringValue == "a")
        #expect(metadata["request"]?.stringValue == "r-1")
        #expect(metadata["seq"]?.stringValue == "9", "the call's metadata wins over the provider's and the handler's")
        #expect(metadata["kinds"] == .array([.string("a"), .string("b")]))
        #expect(metadata["detail"]?["status"]?.stringValue == "429")
        #expect(metadata["count"]?.stringValue == "3")
        let time = try #require(first["time"]?.stringValue)
        #expect(time.count == 24 && time.hasSuffix("Z"), "RFC 3339 in UTC with milliseconds: \(time)")
        #expect(try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(time).timeIntervalSinceNow.magnitude < 60)

        let second = try JSONValue(parsing: Array(written[1].utf8))
        #expect(second["level"]?.stringValue == "error")
        #expect(second["message"]?.stringValue == "quote \" backslash \\ newline \n tab \t bell \u{07} é 🙂")
        #expect(written[1].contains(#"\u0007"#))
    }
}
