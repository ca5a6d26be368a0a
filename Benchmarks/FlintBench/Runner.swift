#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A fictional number and its fixed code.
struct TestNumber: Sendable {
    let number: String
    let code: String
}

/// Distinct real-looking numbers: `prefix` + exchange 220…299 (valid NANP central-office codes: first digit 2-9,
/// never N11 or 555) + a 4-digit line. Each client owns a disjoint slice of the space, so no two clients (and no
/// two numbers in one batch) ever share a number; `seed` shifts where in its slice a client starts.
struct RealNumbers: Sendable {
    static let exchanges = 80  // 220…299
    static let space = exchanges * 10_000
    let prefix: String
    let seed: Int
    let clients: Int

    var slice: Int { Self.space / clients }

    func number(client: Int, index: Int) -> String {
        let n = client * slice + (seed + index) % slice
        let exchange = 220 + n / 10_000
        return prefix + String(exchange) + String(format4: n % 10_000)
    }
}

struct RunSettings: Sendable {
    let concurrency: Int
    let warmup: Duration
    let duration: Duration
    let maxOps: Int
    let batch: Int
    let tests: [TestNumber]
    let realNumbers: RealNumbers
    /// Accounts of the `apple` and `passkey` scenarios (at least one per client).
    let users: Int
    /// The Apple stand-in's settings (`apple`, `applenew`).
    let apple: AppleSettings?
}

/// The measured window: operations completing in `[start, end)` count.
struct Window: Sendable {
    let start: ContinuousClock.Instant
    let end: ContinuousClock.Instant

    func contains(_ instant: ContinuousClock.Instant) -> Bool { instant >= start && instant < end }
}

/// One client's tally, merged with the others' at the end (no sharing while running).
struct ClientTally: Sendable {
    static let maxSamples = 5
    static let maxConsecutiveFailures = 50

    var latencies: [Int64] = []  // nanoseconds
    var errors = 0
    var warmupErrors = 0
    var samples: [String] = []
    var consecutiveFailures = 0
    /// Client-side work inside operations that is not waiting for the server (the passkey scenario's signing).
    var clientNanos: Int64 = 0
    var clientWorkCount = 0

    init() { latencies.reserveCapacity(8192) }

    mutating func completed(latency: Duration, at end: ContinuousClock.Instant, in window: Window) {
        consecutiveFailures = 0
        if window.contains(end) { latencies.append(latency.nanoseconds) }
    }

    mutating func failed(_ what: String, _ reply: Reply, at instant: ContinuousClock.Instant, in window: Window) {
        count(at: instant, in: window)
        if samples.count < Self.maxSamples { samples.append("\(what): HTTP \(reply.status) \(reply.text)") }
    }

    mutating func failed(_ what: String, _ error: any Error, at instant: ContinuousClock.Instant, in window: Window) {
        count(at: instant, in: window)
        consecutiveFailures += 1
        if samples.count < Self.maxSamples { samples.append("\(what): \(error)") }
    }

    mutating func failed(_ what: String, detail: String, at instant: ContinuousClock.Instant, in window: Window) {
        count(at: instant, in: window)
        if samples.count < Self.maxSamples { samples.append("\(what): \(detail)") }
    }

    private mutating func count(at instant: ContinuousClock.Instant, in window: Window) {
        if instant < window.start { warmupErrors += 1 } else { errors += 1 }
    }

    /// A client stops early when the server keeps refusing (e.g. it died), instead of spinning.
    var givingUp: Bool { consecutiveFailures >= Self.maxConsecutiveFailures }
}

extension Duration {
    var nanoseconds: Int64 {
        let c = components
        return c.seconds * 1_000_000_000 + c.attoseconds / 1_000_000_000
    }
}

/// Runs one scenario with `concurrency` clients.
struct Runner: Sendable {
    let api: FlintAPI
    let settings: RunSettings

    func run(_ scenario: Scenario) async throws -> Report {
        let clock = ContinuousClock()
        var extra: [String: Double] = [:]
        let tallies: [ClientTally]
        let window: Window
        switch scenario {
        case .fictional:
            window = makeWindow(clock)
            tallies = await clients { client in await fictional(client: client, window: window) }
        case .real:
            let book = CodeBook(api: api)
            window = makeWindow(clock)
            tallies = await clients { client in await real(client: client, window: window, book: book) }
            let stats = await book.stats
            extra["code_lookups"] = Double(stats.lookups)
            extra["code_lookup_avg_ms"] = stats.lookups == 0 ? 0 : Double(stats.totalNanos) / Double(stats.lookups) / 1e6
            extra["code_lookup_avg_entries"] = stats.lookups == 0 ? 0 : Double(stats.entries) / Double(stats.lookups)
        case .lookup:
            let tokens = try await signedInTokens().map(\.idToken)
            window = makeWindow(clock)
            tallies = await clients { client in
                await repeating("lookup", window: window) { try await api.lookup(tokens[client % tokens.count]) }
            }
        case .emaillink:
            let run = Int.random(in: 0..<1_000_000_000)
            window = makeWindow(clock)
            tallies = await clients { client in await emailLink(client: client, run: run, window: window) }
        case .password:
            let accounts = try await passwordAccounts()
            window = makeWindow(clock)
            tallies = await clients { client in
                let email = accounts[client % accounts.count]
                return await repeating("signInWithPassword", window: window) {
                    try await api.signInWithPassword(email: email, password: Self.benchPassword)
                }
            }
        case .mfa:
            let accounts = try await mfaAccounts()
            window = makeWindow(clock)
            tallies = await clients { client in await mfaSignIn(account: accounts[client % accounts.count], window: window) }
        case .refresh:
            let tokens = try await refreshTokens()
            window = makeWindow(clock)
            tallies = await clients { client in
                await repeating("token", window: window) { try await api.refresh(tokens[client % tokens.count]) }
            }
        case .apple, .applenew:
            (tallies, extra) = try await appleSignIns(newUsers: scenario == .applenew)
        case .passkey:
            (tallies, extra) = try await passkeySignIns()
        case .all:
            throw BenchError("internal: 'all' is expanded before running")
        }
        return Report(scenario: scenario, tallies: tallies, measured: settings.duration, extra: extra)
    }

    func makeWindow(_ clock: ContinuousClock) -> Window {
        let start = clock.now + settings.warmup
        return Window(start: start, end: start + settings.duration)
    }

    func clients(_ body: @escaping @Sendable (Int) async -> ClientTally) async -> [ClientTally] {
        await withTaskGroup(of: ClientTally.self, returning: [ClientTally].self) { group in
            for client in 0..<settings.concurrency { group.addTask { await body(client) } }
            var all: [ClientTally] = []
            all.reserveCapacity(settings.concurrency)
            for await tally in group { all.append(tally) }
            return all
        }
    }

    // MARK: Scenarios

    /// send + sign in with a fictional number; client `c` walks the list from position `c`.
    private func fictional(client: Int, window: Window) async -> ClientTally {
        let tests = settings.tests
        return await repeatingSteps("request", window: window) { index in
            let test = tests[(client + index) % tests.count]
            let sent = try await api.sendCode(to: test.number)
            guard sent.ok, let session = JSONText.stringField("sessionInfo", in: sent.body) else {
                return StepFailure(step: "sendVerificationCode", reply: sent)
            }
            let signed = try await api.signIn(sessionInfo: session, code: test.code)
            return signed.ok ? nil : StepFailure(step: "signInWithPhoneNumber", reply: signed)
        }
    }

    /// Batches of `batch` distinct real numbers: send each, one bulk code lookup (shared by all clients waiting at
    /// that moment), then sign in each. An operation's latency is its send time + its sign-in time; time spent
    /// waiting for the lookup or for the rest of the batch is not part of it (it is the benchmark's own overhead).
    private func real(client: Int, window: Window, book: CodeBook) async -> ClientTally {
        let clock = ContinuousClock()
        let numbers = settings.realNumbers
        let batch = settings.batch
        if batch == 0 { return await realOneByOne(client: client, window: window) }
        var tally = ClientTally()
        var index = 0
        var done = 0
        while done < settings.maxOps {
            guard clock.now < window.end, !tally.givingUp else { break }
            var pending: [(number: String, session: String, sendTime: Duration)] = []
            pending.reserveCapacity(batch)
            for _ in 0..<min(batch, settings.maxOps - done) {
                let number = numbers.number(client: client, index: index)
                index += 1
                done += 1
                let start = clock.now
                do {
                    let sent = try await api.sendCode(to: number)
                    let end = clock.now
                    guard sent.ok, let session = JSONText.stringField("sessionInfo", in: sent.body) else {
                        tally.failed("sendVerificationCode \(number)", sent, at: end, in: window)
                        continue
                    }
                    pending.append((number, session, end - start))
                } catch {
                    tally.failed("sendVerificationCode", error, at: clock.now, in: window)
                }
            }
            if pending.isEmpty { continue }
            let codes = await book.codes(for: pending.map(\.number))
            for item in pending {
                guard let code = codes[item.number] else {
                    tally.failed("code lookup \(item.number)", detail: "no pending code listed", at: clock.now, in: window)
                    continue
                }
                let start = clock.now
                do {
                    let signed = try await api.signIn(sessionInfo: item.session, code: code)
                    let end = clock.now
                    guard signed.ok else {
                        tally.failed("signInWithPhoneNumber \(item.number)", signed, at: end, in: window)
                        continue
                    }
                    tally.completed(latency: item.sendTime + (end - start), at: end, in: window)
                } catch {
                    tally.failed("signInWithPhoneNumber", error, at: clock.now, in: window)
                }
            }
        }
        return tally
    }

    /// Send, look the code up by number, sign in; the lookup is not part of the operation's latency.
    private func realOneByOne(client: Int, window: Window) async -> ClientTally {
        let clock = ContinuousClock()
        var tally = ClientTally()
        for index in 0..<settings.maxOps {
            guard clock.now < window.end, !tally.givingUp else { break }
            let number = settings.realNumbers.number(client: client, index: index)
            do {
                let start = clock.now
                let sent = try await api.sendCode(to: number)
                let sendTime = clock.now - start
                guard sent.ok, let session = JSONText.stringField("sessionInfo", in: sent.body) else {
                    tally.failed("sendVerificationCode \(number)", sent, at: clock.now, in: window)
                    continue
                }
                let (listed, code) = try await api.pendingCode(for: number)
                guard let code else {
                    tally.failed("code lookup \(number)", listed, at: clock.now, in: window)
                    continue
                }
                let signStart = clock.now
                let signed = try await api.signIn(sessionInfo: session, code: code)
                let end = clock.now
                guard signed.ok else {
                    tally.failed("signInWithPhoneNumber \(number)", signed, at: end, in: window)
                    continue
                }
                tally.completed(latency: sendTime + (end - signStart), at: end, in: window)
            } catch {
                tally.failed("real sign-in", error, at: clock.now, in: window)
            }
        }
        return tally
    }

    /// A fresh address per operation: the operator asks for a sign-in code, the client signs in with it.
    private func emailLink(client: Int, run: Int, window: Window) async -> ClientTally {
        await repeatingSteps("email link", window: window) { index in
            if case .failure(let failure) = try await api.emailLinkFirstFactor("bench-\(run)-\(client)-\(index)@example.com") {
                return failure
            }
            return nil
        }
    }

    /// An account with an SMS second factor on a fictional number.
    struct MFAAccount: Sendable {
        let email: String
        let enrollmentID: String
        let code: String
    }

    /// One MFA sign-in: first factor by email link, then the SMS factor (fixed code of a fictional number).
    private func mfaSignIn(account: MFAAccount, window: Window) async -> ClientTally {
        await repeatingSteps("mfa sign-in", window: window) { _ in
            let first: Reply
            switch try await api.emailLinkFirstFactor(account.email) {
            case .success(let reply): first = reply
            case .failure(let failure): return failure
            }
            guard let pending = JSONText.stringField("mfaPendingCredential", in: first.body) else {
                return StepFailure(step: "signInWithEmailLink", reply: first)
            }
            let started = try await api.mfa(
                "mfaSignIn:start",
                "{\"mfaPendingCredential\":" + JSONText.quote(pending) + ",\"mfaEnrollmentId\":" + JSONText.quote(account.enrollmentID) + "}")
            guard started.ok, let session = JSONText.stringField("sessionInfo", in: started.body) else {
                return StepFailure(step: "mfaSignIn:start", reply: started)
            }
            let done = try await api.mfa(
                "mfaSignIn:finalize",
                "{\"mfaPendingCredential\":" + JSONText.quote(pending) + ",\"phoneVerificationInfo\":{\"sessionInfo\":" + JSONText.quote(session)
                    + ",\"code\":" + JSONText.quote(account.code) + "}}")
            return done.ok ? nil : StepFailure(step: "mfaSignIn:finalize", reply: done)
        }
    }

    /// One account per client (at most 256), each with an SMS factor on a fictional number, made before the clock
    /// starts (turns MFA on for the project).
    private func mfaAccounts() async throws -> [MFAAccount] {
        try await api.enableMFA()
        let run = Int.random(in: 0..<1_000_000_000)
        var accounts: [MFAAccount] = []
        for i in 0..<min(settings.concurrency, 256) {
            let email = "bench-mfa-\(run)-\(i)@example.com"
            let test = settings.tests[i % settings.tests.count]
            let signed: Reply
            switch try await api.emailLinkFirstFactor(email) {
            case .success(let reply): signed = reply
            case .failure(let failure): throw BenchError("mfa setup: \(failure.step) \(failure.reply.text)")
            }
            guard let idToken = JSONText.stringField("idToken", in: signed.body) else {
                throw BenchError("mfa setup: signInWithEmailLink \(signed.text)")
            }
            let started = try await api.mfa(
                "mfaEnrollment:start",
                "{\"idToken\":" + JSONText.quote(idToken) + ",\"phoneEnrollmentInfo\":{\"phoneNumber\":" + JSONText.quote(test.number) + "}}")
            guard started.ok, let session = JSONText.stringField("sessionInfo", in: started.body) else {
                throw BenchError("mfa setup: mfaEnrollment:start \(started.text) (are the test numbers configured? see --configure)")
            }
            let done = try await api.mfa(
                "mfaEnrollment:finalize",
                "{\"idToken\":" + JSONText.quote(idToken) + ",\"phoneVerificationInfo\":{\"sessionInfo\":" + JSONText.quote(session) + ",\"code\":"
                    + JSONText.quote(test.code) + "}}")
            guard done.ok, let token = JSONText.stringField("idToken", in: done.body), let enrollmentID = Self.secondFactorID(token) else {
                throw BenchError("mfa setup: mfaEnrollment:finalize \(done.text)")
            }
            accounts.append(MFAAccount(email: email, enrollmentID: enrollmentID, code: test.code))
        }
        return accounts
    }

    /// `firebase.second_factor_identifier` of an ID token.
    static func secondFactorID(_ token: String) -> String? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var text = String(parts[1].map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return nil }
        return JSONText.stringField("second_factor_identifier", in: [UInt8](data))
    }

    static let benchPassword = "flint-bench-password"

    /// One password account per client (at most 256), made before the clock starts; an existing one is reused.
    private func passwordAccounts() async throws -> [String] {
        let count = min(settings.concurrency, 256)
        var emails: [String] = []
        for i in 0..<count {
            let email = "bench-password-\(i)@example.com"
            let made = try await api.signUp(email: email, password: Self.benchPassword)
            guard made.ok || made.text.contains("EMAIL_EXISTS") else {
                throw BenchError("password setup: signUp \(email): HTTP \(made.status) \(made.text)")
            }
            emails.append(email)
        }
        return emails
    }

    /// One request per operation until the window closes; `name` labels failures.
    private func repeating(_ name: String, window: Window, _ call: () async throws -> Reply) async -> ClientTally {
        await repeatingSteps(name, window: window) { _ in
            let reply = try await call()
            return reply.ok ? nil : StepFailure(step: name, reply: reply)
        }
    }

    /// One operation (one or more requests) per iteration until the window closes: `operation` gets the
    /// iteration's index and answers `nil` when every step succeeded, else the step that failed; an error it throws
    /// is tallied under `name`. An operation's latency runs from its first request to its last answer.
    func repeatingSteps(_ name: String, window: Window, _ operation: (Int) async throws -> StepFailure?) async -> ClientTally {
        let clock = ContinuousClock()
        var tally = ClientTally()
        for index in 0..<settings.maxOps {
            let start = clock.now
            guard start < window.end, !tally.givingUp else { break }
            do {
                let failure = try await operation(index)
                let end = clock.now
                if let failure {
                    tally.failed(failure.step, failure.reply, at: end, in: window)
                } else {
                    tally.completed(latency: end - start, at: end, in: window)
                }
            } catch {
                tally.failed(name, error, at: clock.now, in: window)
            }
        }
        return tally
    }

    /// Refresh tokens for the refresh scenario.
    private func refreshTokens() async throws -> [String] {
        try await signedInTokens().map(\.refreshToken)
    }

    /// One fictional sign-in per client (at most 256), done before the clock starts.
    private func signedInTokens() async throws -> [(idToken: String, refreshToken: String)] {
        let count = min(settings.concurrency, 256)
        var tokens: [(idToken: String, refreshToken: String)] = []
        for i in 0..<count {
            let test = settings.tests[i % settings.tests.count]
            let sent = try await api.sendCode(to: test.number)
            guard sent.ok, let session = JSONText.stringField("sessionInfo", in: sent.body) else {
                throw BenchError("refresh setup: sendVerificationCode \(test.number): HTTP \(sent.status) \(sent.text)")
            }
            let signed = try await api.signIn(sessionInfo: session, code: test.code)
            guard signed.ok, let token = JSONText.stringField("refreshToken", in: signed.body),
                let idToken = JSONText.stringField("idToken", in: signed.body)
            else {
                throw BenchError(
                    "refresh setup: signInWithPhoneNumber \(test.number): HTTP \(signed.status) \(signed.text) "
                        + "(are the test numbers configured? see --configure)"
                )
            }
            tokens.append((idToken, token))
        }
        return tokens
    }
}
