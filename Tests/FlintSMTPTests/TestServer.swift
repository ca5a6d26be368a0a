import FlintSMTP
import FlintTesting
import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// The SMTP server that `scripts/smtp-server start` runs (`scripts/test` starts it): its ports, credentials,
/// certificate and the maildir where it stores what it accepts. `nil` when the variables are not set.
struct TestServer: Sendable {
    var host: String
    var startTLSPort: Int
    var tlsPort: Int
    var plainPort: Int
    var loginPort: Int
    var user: String
    var password: String
    var ca: String
    var maildir: String

    static let current: TestServer? = {
        let env = ProcessInfo.processInfo.environment
        guard let host = env["FLINT_TEST_SMTP_HOST"], let startTLS = env["FLINT_TEST_SMTP_STARTTLS_PORT"].flatMap(Int.init),
            let tls = env["FLINT_TEST_SMTP_TLS_PORT"].flatMap(Int.init), let plain = env["FLINT_TEST_SMTP_PLAIN_PORT"].flatMap(Int.init),
            let login = env["FLINT_TEST_SMTP_LOGIN_PORT"].flatMap(Int.init), let user = env["FLINT_TEST_SMTP_USER"],
            let password = env["FLINT_TEST_SMTP_PASSWORD"], let ca = env["FLINT_TEST_SMTP_CA"], let maildir = env["FLINT_TEST_SMTP_MAILDIR"]
        else { return nil }
        return TestServer(
            host: host, startTLSPort: startTLS, tlsPort: tls, plainPort: plain, loginPort: login, user: user, password: password, ca: ca,
            maildir: maildir
        )
    }()

    /// Settings for one of the ports, with the test CA, the test credentials and short waits.
    func settings(port: Int, security: SMTPSettings.Security, authenticate: Bool = true) -> SMTPSettings {
        SMTPSettings(
            host: host, port: port, security: security, username: authenticate ? user : nil, password: authenticate ? password : nil,
            heloName: "flint-tests.example", connectTimeout: .seconds(5), commandTimeout: .seconds(10), maxAttempts: 3,
            initialBackoff: .milliseconds(50), trustRootsFile: ca
        )
    }

    /// The stored message whose `Message-ID` is `messageID`, waiting briefly for the file to appear (the SMTP server is
    /// another process, which writes it after its answer: the folder is read every 100 ms).
    func stored(messageID: String) async throws -> String {
        for _ in 0..<50 {
            for name in try FileManager.default.contentsOfDirectory(atPath: maildir) where name.hasSuffix(".eml") {
                let text = try String(contentsOfFile: (maildir as NSString).appendingPathComponent(name), encoding: .utf8)
                if text.contains("Message-ID: <\(messageID)>") { return text }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("no message \(messageID) in \(maildir)")
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A TCP listener on loopback that accepts connections and never says anything (or only `greeting`); it counts the
/// connections it accepted and those the client has closed since.
struct SilentServer {
    let channel: any Channel
    let counts: Counts
    var port: Int { channel.localAddress?.port ?? 0 }

    final class Counts: Sendable {
        private let state = Mutex((accepted: 0, closed: 0))
        /// One event per connection closed, for a test to wait for.
        let closes = EventLog<Void>()
        var accepted: Int { state.withLock { $0.accepted } }
        var closed: Int { state.withLock { $0.closed } }
        func accept() { state.withLock { $0.accepted += 1 } }
        func close() {
            state.withLock { $0.closed += 1 }
            closes.record(())
        }
    }

    static func start(greeting: String? = nil) async throws -> SilentServer {
        let counts = Counts()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                counts.accept()
                child.closeFuture.whenComplete { _ in counts.close() }
                if let greeting { child.writeAndFlush(ByteBuffer(string: greeting), promise: nil) }
                return child.eventLoop.makeSucceededVoidFuture()
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return SilentServer(channel: channel, counts: counts)
    }

    func stop() async throws { try await channel.close() }
}

/// A loopback port with nothing listening: bound, then closed.
func closedPort() async throws -> Int {
    let server = try await SilentServer.start()
    let port = server.port
    try await server.stop()
    return port
}

/// Log lines, kept to check what is (and is not) logged.
final class LogRecorder: Sendable {
    private let store = Mutex<[String]>([])

    var lines: [String] { store.withLock { $0 } }

    func logger() -> Logger {
        Logger(label: "smtp-test") { _ in Handler(recorder: self) }
    }

    struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let line = "\(event.level) \(event.message) " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            recorder.store.withLock { $0.append(line) }
        }
    }
}
