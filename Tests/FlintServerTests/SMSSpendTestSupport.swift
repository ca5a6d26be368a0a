import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing

@testable import FlintServer

/// A local stand-in for an SMS provider behind the webhook sender: it accepts every text and keeps what it received,
/// so tests count the texts that actually went out.
actor TextInbox {
    struct Text: Sendable {
        var to: String
        var code: String
    }

    private(set) var texts: [Text] = []

    func receive(_ body: String) {
        let payload = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: String] ?? [:]
        texts.append(Text(to: payload["to"] ?? "", code: payload["code"] ?? ""))
    }

    /// The newest code texted to `phone`.
    func code(for phone: String) -> String? { texts.last { $0.to == phone }?.code }

    /// Runs `body` with the inbox listening on a loopback port; `body` gets the webhook sender pointed at it.
    nonisolated func serve<T: Sendable>(clock: ManualClock, _ body: @escaping @Sendable (WebhookSMSSender) async throws -> T) async throws -> T {
        let router = Router()
        router.post("/sms") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 16)
            await self.receive(String(buffer: bytes))
            return Response(status: .ok)
        }
        let result = Mutex<T?>(nil)
        try await Application(router: router).test(.live) { client in
            guard let port = client.port else { throw CancellationError() }
            let sender = WebhookSMSSender(url: "http://127.0.0.1:\(port)/sms", secret: "0123456789abcdef-test-secret", clock: clock)
            let value = try await body(sender)
            result.withLock { $0 = value }
        }
        guard let value = result.withLock({ $0 }) else { throw CancellationError() }
        return value
    }
}

/// Log lines kept for a test to read (message and metadata, as text).
final class LogLines: Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let lines = Mutex<[Line]>([])

    var all: [Line] { lines.withLock { $0 } }

    func append(_ line: Line) { lines.withLock { $0.append(line) } }

    /// A logger writing here (and nowhere else) from `level` on.
    func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "flint-test") { _ in Handler(lines: self) }
        logger.logLevel = level
        return logger
    }

    struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            lines.append(Line(level: event.level, message: "\(event.message)", metadata: all.mapValues { "\($0)" }))
        }
    }
}

/// Midnight UTC, 2026-01-01: the hourly and daily windows do not roll over mid-test unless a test moves the clock.
func spendDayStart() -> ManualClock { ManualClock(Instant(secondsSince1970: 1_767_225_600)) }

/// A production-mode node (no dev routes; `Bearer owner` is the admin token; the client address from
/// `X-Forwarded-For`) whose texts go to `sms`, with app verification off and `smsLimits` (`flint.smsLimits` fields)
/// set through its `--config` document. Pass `path` to share one database file between nodes.
func productionNode(
    sms: any SMSSender, clock: ManualClock, smsLimits: [String: Int] = [:], path: String? = nil, logger: Logger? = nil,
    configure: (inout ServerSettings) -> Void = { _ in }
) async throws -> TestNode {
    var quiet = Logger(label: "flint-test")
    quiet.logLevel = .warning
    let log = logger ?? quiet
    let store = try await SQLiteStore(path: path, replayingWrites: true, logger: log)
    var settings = ServerSettings()
    settings.port = 0
    settings.devMode = false
    settings.adminToken = "owner"
    settings.trustForwardedFor = true
    settings.passwordHashParameters = PasswordHashParameters(logN: 10)
    var limits: [String: JSONValue] = [:]
    for (field, value) in smsLimits { limits[field] = .number(Double(value)) }
    settings.configDocument = [
        "signIn": ["phoneNumber": ["enabled": true, "appVerification": "OFF"], "email": ["enabled": true]],
        "flint": .object(["smsLimits": .object(limits)]),
    ]
    configure(&settings)
    let server = try await FlintServer(settings: settings, store: store, clock: clock, sms: sms, logger: log)
    return TestNode(server: server, clock: clock, store: store)
}

extension API {
    /// `sendVerificationCode` for `phone` from the client address `ip`; the raw answer.
    func send(_ phone: String, from ip: String) async throws -> Reply {
        try await post(Path.send, ["phoneNumber": phone], headers: [.xForwardedFor: ip])
    }
}

/// The `n`th of a run of US numbers (+1 650 555 2000 on).
func usNumber(_ n: Int) -> String { "+1650555" + String(2000 + n) }

/// The `n`th of a run of UK mobile numbers (+44 7700 900 100 on).
func ukNumber(_ n: Int) -> String { "+447700900" + String(100 + n) }
