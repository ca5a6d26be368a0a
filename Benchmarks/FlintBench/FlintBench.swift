import ArgumentParser
import AsyncHTTPClient
import NIOCore
import NIOPosix

/// What one run measures.
enum Scenario: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Fictional (test) numbers: send (no SMS) + sign in with the fixed code.
    case fictional
    /// Real numbers: send (code stored, SMS to the dev outbox) + sign in with the code read back in bulk.
    case real
    /// One `securetoken` refresh-token exchange.
    case refresh
    /// One `accounts:lookup` with an ID token (not part of `all`; used for scale runs).
    case lookup
    /// Email link: an operator's `sendOobCode` with `returnOobLink` (code stored, no email) + `signInWithEmailLink`
    /// for a fresh address each time.
    case emaillink
    /// `signInWithPassword` of accounts made before the clock starts (the server's scrypt cost applies).
    case password
    /// MFA sign-in of accounts with an SMS second factor (a fictional number, so no SMS and a fixed code): email-link
    /// first factor (operator link + `signInWithEmailLink` → pending credential), `mfaSignIn:start`, `mfaSignIn:finalize`.
    case mfa
    /// Sign in with Apple, returning users: `signInWithIdp` with an Apple-like ID token (a fresh nonce each time) for
    /// accounts signed in once before the clock starts; the tokens are signed by a stand-in issuer whose keys this
    /// process serves on `--idp-port` (flint serve's `--idp-stand-in apple.com=…`), minted before the clock starts.
    case apple
    /// Sign in with Apple, a new user (so a new account) each time.
    case applenew
    /// Passkey sign-in of accounts given a passkey before the clock starts (a software P-256 authenticator):
    /// `passkeySignIn:start` + `passkeySignIn:finalize`.
    case passkey
    /// fictional, real and refresh, in turn.
    case all

    var expanded: [Scenario] { self == .all ? [.fictional, .real, .refresh] : [self] }
}

/// Where the client's Swift tasks run.
enum ExecutorChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// NIO's singleton event loops (`--threads` of them) become the global executor: one pool, no thread hops.
    case nio
    /// Swift's default cooperative pool, plus a separate event-loop group of `--threads` threads for I/O.
    case swift
}

/// `flint-bench`: drives a running Flint server on loopback and reports throughput and latency per scenario.
struct FlintBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flint-bench",
        abstract: "Load benchmark for a Flint server running on this machine (loopback only).",
        discussion: """
            Each of --concurrency clients runs a loop of sequential operations on keep-alive connections for \
            --warmup + --duration seconds; only operations completed inside the --duration window are counted. \
            A sign-in is send + sign in; a refresh is one token call. Any non-200 answer is an error. \
            The fictional and refresh scenarios need the --test-number numbers configured on the server \
            (scripts/bench does it; or pass --configure). The apple scenarios need --idp-port, where this process \
            serves the stand-in issuer's keys for flint serve --idp-stand-in apple.com=http://127.0.0.1:PORT (dev mode; \
            scripts/bench --scenario apple starts both so); their tokens are minted before the clock starts, \
            --idp-rate sign-ins per second's worth. A passkey sign-in is start + finalize, the client's assertion \
            signing included (reported apart as client_sign_us).
            """
    )

    @Option(help: "Server base URL; loopback only (127.0.0.1, localhost, [::1]).")
    var url: String = "http://127.0.0.1:9099"

    @Option(help: "Concurrent clients, each a loop of sequential requests.")
    var concurrency: Int = 32

    @Option(help: "Measured seconds per scenario.")
    var duration: Double = 10

    @Option(help: "Unmeasured seconds per scenario before the measurement starts.")
    var warmup: Double = 2

    @Option(help: "Idle seconds between scenarios, so work the server deferred (e.g. refresh bookkeeping) does not spill over.")
    var pause: Double = 2

    @Option(
        help: "fictional, real, refresh, lookup, emaillink, password, mfa, apple, applenew, passkey, or all (fictional, real, refresh in turn)."
    )
    var scenario: Scenario = .all

    @Flag(help: "Print one JSON line per scenario on stdout (the human summary goes to stderr).")
    var json = false

    @Option(help: "Client event-loop threads.")
    var threads: Int = 1

    @Option(help: "Where client tasks run: nio (event loops as the global executor) or swift (default pool + event loops).")
    var executor: ExecutorChoice = .nio

    @Option(help: "API key sent as ?key=.")
    var apiKey: String = "flint-bench"

    @Option(help: "Project ID (for the dev and admin routes).")
    var project: String = "demo-flint"

    @Option(help: "Fictional number and its code as +NUMBER=CODE; repeatable (default +16505550001…+16505550010 = 123456).")
    var testNumber: [String] = []

    @Flag(help: "Configure the test numbers on the server first (admin API, dev credential 'Bearer owner').")
    var configure = false

    @Option(help: "Real scenario: numbers each client sends codes to before one bulk code lookup; 0 = look each code up by number (?phoneNumber=).")
    var batch: Int = 0

    @Option(help: "Real scenario: the number prefix; a client's numbers are PREFIX + exchange 220-299 + 4 digits.")
    var realPrefix: String = "+1650"

    @Option(help: "Real scenario: offset into the number space (default random, so repeated runs use fresh numbers).")
    var seed: Int?

    @Option(help: "apple and passkey scenarios: accounts signed in to, shared out among the clients (at least one each).")
    var users: Int = 256

    @Option(
        help:
            "apple scenarios: the loopback port to serve the stand-in issuer's keys on (/auth/keys), as flint serve's --idp-stand-in apple.com=http://127.0.0.1:PORT names it."
    )
    var idpPort: Int?

    @Option(help: "apple scenarios: how the stand-in signs, rs256 (as Apple does) or es256.")
    var idpAlg: IdpAlgorithm = .rs256

    @Option(
        help:
            "apple scenarios: the stand-in's key (PEM), read if the file exists, else made and written there, so repeated runs against one server sign with the key it has cached."
    )
    var idpKey: String?

    @Option(help: "apple scenarios: the app's bundle ID (the tokens' aud; configured on the server as apple.com's).")
    var bundleId: String = "dev.flint.bench"

    @Option(help: "apple scenarios: sign-ins per second the tokens minted beforehand suffice for (over warm-up + measured time).")
    var idpRate: Int = 3000

    @Option(help: "Upper bound on operations per client per scenario.")
    var maxOps: Int = 1_000_000

    @Option(help: "Per-request timeout, seconds.")
    var timeout: Int = 30

    func validate() throws {
        guard (1...4096).contains(concurrency) else { throw ValidationError("--concurrency must be 1...4096") }
        guard duration > 0, duration <= 3600 else { throw ValidationError("--duration must be in (0, 3600] seconds") }
        guard warmup >= 0, warmup <= 600 else { throw ValidationError("--warmup must be in [0, 600] seconds") }
        guard pause >= 0, pause <= 60 else { throw ValidationError("--pause must be in [0, 60] seconds") }
        guard (1...16).contains(threads) else { throw ValidationError("--threads must be 1...16") }
        guard (0...100).contains(batch) else { throw ValidationError("--batch must be 0...100") }
        guard (1...100_000_000).contains(maxOps) else { throw ValidationError("--max-ops must be 1...100000000") }
        guard (1...600).contains(timeout) else { throw ValidationError("--timeout must be 1...600 seconds") }
        guard (1...1_000_000).contains(users) else { throw ValidationError("--users must be 1...1000000") }
        guard idpPort.map({ (1...65535).contains($0) }) ?? true else { throw ValidationError("--idp-port must be 1...65535") }
        guard (1...100_000).contains(idpRate) else { throw ValidationError("--idp-rate must be 1...100000") }
        guard realPrefix.hasPrefix("+"), realPrefix.dropFirst().allSatisfy(\.isASCIIDigit), realPrefix.count <= 9 else {
            throw ValidationError("--real-prefix must be + and up to 8 digits")
        }
        _ = try Target(url: url)
        _ = try testNumbers()
    }

    /// The fictional numbers and their codes.
    func testNumbers() throws -> [(number: String, code: String)] {
        if testNumber.isEmpty {
            return (1...10).map { (number: "+1650555" + String(format4: $0), code: "123456") }
        }
        return try testNumber.map { item in
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].hasPrefix("+"), !parts[1].isEmpty else {
                throw ValidationError("--test-number must look like +16505550001=123456")
            }
            return (number: String(parts[0]), code: String(parts[1]))
        }
    }

    /// The client's event loops. With `--executor nio` they also become Swift Concurrency's global executor,
    /// which must happen on the main thread before any task runs (so: called from main.swift, before `run`).
    func makeEventLoopGroup() -> MultiThreadedEventLoopGroup {
        switch executor {
        case .nio:
            NIOSingletons.groupLoopCountSuggestion = threads
            if !NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() {
                FlintBench.printErr("note: could not install NIO as the global executor; tasks run on Swift's pool")
            }
            return MultiThreadedEventLoopGroup.singleton
        case .swift:
            return MultiThreadedEventLoopGroup(numberOfThreads: threads)
        }
    }

    func run() throws {
        throw ValidationError("internal: run(group:) is the entry point")
    }

    func run(group: MultiThreadedEventLoopGroup) async throws {
        let target = try Target(url: url)
        var apple: AppleSettings?
        if let idpPort, [.apple, .applenew].contains(scenario) {
            let standIn = try AppleStandIn(algorithm: idpAlg, keyFile: idpKey, bundleID: bundleId)
            apple = AppleSettings(standIn: standIn, port: idpPort, rate: idpRate, group: group)
        }
        let tests = try testNumbers()
        var config = HTTPClient.Configuration()
        config.connectionPool = .init(idleTimeout: .seconds(120), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
        config.timeout = .init(connect: .seconds(5), read: .seconds(Int64(timeout)))
        config.httpVersion = .http1Only
        config.redirectConfiguration = .disallow
        let http = HTTPClient(eventLoopGroup: group, configuration: config)
        let api = FlintAPI(http: http, target: target, apiKey: apiKey, project: project, timeout: .seconds(Int64(timeout)))

        let outcome: Result<Void, any Error>
        do {
            try await benchmark(api: api, tests: tests, apple: apple)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try? await http.shutdown()
        if executor == .swift { try? await group.shutdownGracefully() }
        try outcome.get()
    }

    private func benchmark(api: FlintAPI, tests: [(number: String, code: String)], apple: AppleSettings?) async throws {
        if configure { try await api.configureTestNumbers(tests) }
        let settings = RunSettings(
            concurrency: concurrency, warmup: .seconds(warmup), duration: .seconds(duration), maxOps: maxOps, batch: batch,
            tests: tests.map { TestNumber(number: $0.number, code: $0.code) },
            realNumbers: RealNumbers(prefix: realPrefix, seed: seed ?? Int.random(in: 0..<RealNumbers.space), clients: concurrency),
            users: max(users, concurrency), apple: apple
        )
        Self.printErr(
            "flint-bench: \(url), \(concurrency) clients, \(warmup)s warm-up + \(duration)s measured, "
                + "client \(executor.rawValue) executor, \(threads) event-loop thread(s)"
        )
        var reports: [Report] = []
        for (i, scenario) in scenario.expanded.enumerated() {
            if i > 0, pause > 0 { try await Task.sleep(for: .seconds(pause)) }
            let report = try await Runner(api: api, settings: settings).run(scenario)
            reports.append(report)
            Self.printErr(report.humanLine)
            if !report.errorSamples.isEmpty {
                for sample in report.errorSamples { Self.printErr("  error: \(sample)") }
            }
            if json { print(report.jsonLine(concurrency: concurrency, threads: threads, executor: executor.rawValue)) }
        }
        Self.printErr(Report.table(reports))
    }

    static func printErr(_ text: String) {
        var stderr = StandardError()
        print(text, to: &stderr)
    }
}

/// The server's base URL, checked to be loopback.
struct Target: Sendable {
    let base: String

    init(url: String) throws {
        var rest = Substring(url)
        guard rest.hasPrefix("http://") else { throw ValidationError("--url must start with http:// (no TLS on loopback)") }
        rest = rest.dropFirst("http://".count)
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("?"), !rest.contains("@") else {
            throw ValidationError("--url must be just scheme, host and port, e.g. http://127.0.0.1:9099")
        }
        let host: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw ValidationError("--url has a malformed IPv6 host") }
            host = rest[rest.startIndex...close]
        } else {
            host = rest.split(separator: ":", maxSplits: 1).first ?? ""
        }
        guard ["127.0.0.1", "localhost", "[::1]"].contains(host) else {
            throw ValidationError("--url must point at this machine (127.0.0.1, localhost or [::1]); got host '\(host)'")
        }
        base = "http://" + rest
    }
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = writeStderr(buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { asciiValue.map { (48...57).contains($0) } ?? false }
}

extension String {
    /// `n` zero-padded to 4 digits.
    init(format4 n: Int) {
        let s = String(n)
        self = String(repeating: "0", count: Swift.max(0, 4 - s.count)) + s
    }
}
