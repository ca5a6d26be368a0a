import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

/// Delays asked of an injected sleep, which takes no time: it moves `clock` (when given) by each delay, and stops the
/// task after `limit` calls.
final class SleepRecorder: Sendable {
    let delays = Locked<[TimeInterval]>([])
    private let asked = EventLog<TimeInterval>()
    let limit: Int
    /// Moved forward by each wait up to `limit`, when given.
    let clock: TestClock?
    /// Whether a wait past `limit` lasts until the task is cancelled instead of ending the task.
    let waitsPastLimit: Bool

    init(limit: Int = .max, clock: TestClock? = nil, waitsPastLimit: Bool = false) {
        self.limit = limit
        self.clock = clock
        self.waitsPastLimit = waitsPastLimit
    }

    var sleep: TokenAutoRefresh.Sleep {
        { [self] seconds in
            let count = delays.withLock { delays -> Int in
                delays.append(seconds)
                return delays.count
            }
            asked.record(seconds)
            if count <= limit {
                clock?.advance(by: seconds)
                return
            }
            guard waitsPastLimit else { throw CancellationError() }
            // Until cancelled: the iteration of a stream nobody feeds ends when the task is cancelled.
            let (stream, feed) = AsyncStream.makeStream(of: Never.self)
            for await _ in stream {}
            feed.finish()
            throw CancellationError()
        }
    }

    /// Waits until `count` delays were asked for (the asking resumes the wait) and returns them; `limit` only guards
    /// against a hang.
    func waitFor(_ count: Int, limit: Duration = .seconds(60)) async throws -> [TimeInterval] {
        let seen = await asked.wait(for: count, limit: limit)
        guard seen.count >= count else { throw FlintProcessError(message: "the refresh asked for \(seen) instead of \(count) delays") }
        return seen
    }
}

/// A clock a test moves by hand (or a `SleepRecorder` moves as the refresh waits), for the app's token lifetimes.
final class TestClock: Sendable {
    let date: Locked<Date>

    init(_ start: Date = Date()) { date = Locked(start) }

    var now: @Sendable () -> Date { { [date] in date.current } }

    func advance(by seconds: TimeInterval) { date.withLock { $0 += seconds } }
}

extension FlintProcess {
    /// `makeAuth`, with the automatic refresh's sleep injected, and the app's clock when given.
    func makeAuth(sleep: @escaping TokenAutoRefresh.Sleep, clock: TestClock? = nil) -> Auth {
        let name = "refresh-\(UUID().uuidString)"
        FlintApp.configure(name: name, options: FlintOptions(apiKey: "test-key", projectID: "demo-flint"))
        guard let app = FlintApp.app(name: name) else { preconditionFailure("just configured") }
        let wallClock: @Sendable () -> Date = { Date() }
        let auth = Auth(
            app: app, storeDirectory: URL(fileURLWithPath: directory).appendingPathComponent("store-\(name)"),
            autoRefresh: TokenAutoRefresh(sleep: sleep), now: clock?.now ?? wallClock)
        auth.useEmulator(withHost: "127.0.0.1", port: port)
        return auth
    }
}

@Suite("Automatic token refresh")
struct AutoRefreshTests {
    @Test(
        "the delay is expiry - now - 300 s (never negative), then 60 s doubling to 16 minutes after failures",
        arguments: [
            (3600.0, 0, 3300.0), (301.0, 0, 1.0), (100.0, 0, 0.0), (-50.0, 0, 0.0), (3600.0, 1, 60.0), (3600.0, 2, 120.0),
            (3600.0, 3, 240.0), (3600.0, 4, 480.0), (3600.0, 5, 960.0), (3600.0, 6, 960.0), (3600.0, 40, 960.0),
        ])
    func delays(remaining: TimeInterval, failures: Int, expected: TimeInterval) {
        let now = Date()
        #expect(TokenAutoRefresh.delay(expiry: now.addingTimeInterval(remaining), now: now, failures: failures) == expected)
    }

    @Test("a token near its expiry is refreshed in the background once a token was handed out; sign-out cancels")
    func refreshesInBackground() async throws {
        try await withFlint { server in
            let clock = TestClock()
            let recorder = SleepRecorder(limit: 1, clock: clock, waitsPastLimit: true)
            let auth = server.makeAuth(sleep: recorder.sleep, clock: clock)
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            #expect(auth.autoRefresh.state.current.task == nil, "nothing runs before a token is handed out")
            let tokens = await user.tokenService.tokens
            // The token now counts as having 305 s left on the app's clock: still handed out as is, refreshed once the
            // refresh's 5 s wait has moved the clock on.
            await user.tokenService.replace(
                with: .init(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expirationDate: clock.now().addingTimeInterval(305)))
            // Handed out as is (the refresh starts only once a token was handed out, and its wait takes no time).
            #expect(try await user.getIDToken() == tokens.accessToken)
            let task = try #require(auth.autoRefresh.state.current.task)

            // The refresh asks for its next wait once the new token is in use and stored (getIDToken returns after both).
            let delays = try await recorder.waitFor(2)
            let current = await user.tokenService.tokens
            #expect(current.expirationDate.timeIntervalSince(clock.now()) > 3000)
            #expect(auth.store.load()?.tokens.accessToken == current.accessToken)
            #expect(delays.first == 5)
            #expect(await user.tokenService.refreshCount == 1)

            try auth.signOut()
            #expect(auth.autoRefresh.state.current.task == nil)
            #expect(task.isCancelled)
        }
    }

    @Test("signing in another user moves the refresh to that user and cancels the first user's task")
    func userChange() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let first = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            _ = try await first.getIDToken()
            let firstTask = try #require(auth.autoRefresh.state.current.task)
            #expect(auth.autoRefresh.state.current.user == ObjectIdentifier(first))

            let second = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            #expect(firstTask.isCancelled)
            let secondTask = try #require(auth.autoRefresh.state.current.task)
            #expect(auth.autoRefresh.state.current.user == ObjectIdentifier(second))
            _ = try await second.getIDToken()
            #expect(auth.autoRefresh.state.current.task == secondTask, "handing out another token keeps the running task")
            _ = try await first.getIDToken()
            #expect(auth.autoRefresh.state.current.user == ObjectIdentifier(second), "a token of a user who is not current starts nothing")
        }
    }

    @Test("failed refreshes retry after 60, 120, 240, 480, 960 and 960 s")
    func backoff() async throws {
        try await withFlint { server in
            let clock = TestClock()
            let recorder = SleepRecorder(limit: 7, clock: clock)
            let auth = server.makeAuth(sleep: recorder.sleep, clock: clock)
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            let tokens = await user.tokenService.tokens
            // On the app's clock, which only the refresh's waits move, the token has 320 s left: it is handed out as is
            // (no request) and the refresh is due in exactly 20 s, however loaded the machine; every request from now
            // on goes to a closed port.
            await user.tokenService.replace(
                with: .init(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expirationDate: clock.now().addingTimeInterval(320)))
            auth.backend.configuration.withLock { $0.emulatorHost = "127.0.0.1:1" }
            _ = try await user.getIDToken()
            // Each failed refresh is a refused connection and the backend's one retry half a second later: on a loaded
            // machine seven of them have taken over a minute, so the guard is generous.
            let delays = try await recorder.waitFor(8, limit: .seconds(300))
            #expect(delays[0] == 20)
            #expect(Array(delays[1...6]) == [60, 120, 240, 480, 960, 960])
            #expect(auth.currentUser === user, "a network failure keeps the user signed in")
        }
    }

    @Test("the refresh task holds the Auth and user weakly and is cancelled when the Auth goes away")
    func noLeak() async throws {
        try await withFlint { server in
            weak var weakAuth: Auth?
            weak var weakUser: User?
            var task: Task<Void, Never>?
            // Its first wait lasts until the task is cancelled.
            let recorder = SleepRecorder(limit: 0, waitsPastLimit: true)
            do {
                let auth = server.makeAuth(sleep: recorder.sleep)
                let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
                _ = try await user.getIDToken()
                task = auth.autoRefresh.state.current.task
                weakAuth = auth
                weakUser = user
                // The task is in its wait, where it holds neither.
                _ = try await recorder.waitFor(1)
            }
            // The SDK tells its listeners in blocks on the main queue, which hold the Auth and the user until they ran: a
            // block queued after them runs once they have (and were released).
            let drained = EventLog<Void>()
            DispatchQueue.main.async { drained.record(()) }
            _ = await drained.wait(for: 1)
            #expect(task != nil)
            #expect(weakAuth == nil)
            #expect(weakUser == nil)
            #expect(task?.isCancelled == true)
        }
    }

    /// An unsigned JWT whose payload holds only `exp`.
    static func token(exp: TimeInterval) throws -> String {
        let payload = try JSONSerialization.data(withJSONObject: ["exp": exp])
        let body = payload.base64EncodedString().replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        return "eyJhbGciOiJub25lIn0.\(body).sig"
    }

    @Test("a refresh answered with a token expiring within five minutes is sent once more with the new refresh token")
    func clockSkewRetry() async throws {
        let now = Date()
        let answers = [try Self.token(exp: now.timeIntervalSince1970 + 120), try Self.token(exp: now.timeIntervalSince1970 + 3600)]
        let sent = Locked<[String]>([])
        let (tokens, requests) = try await SecureTokenService.refreshedWithSkewGuard(refreshToken: "r0", now: { now }) { token in
            let index = sent.withLock { sent -> Int in
                sent.append(token)
                return sent.count - 1
            }
            return .init(accessToken: answers[index], refreshToken: "r\(index + 1)", expirationDate: now.addingTimeInterval(3600))
        }
        #expect(requests == 2)
        #expect(sent.current == ["r0", "r1"])
        #expect(tokens.accessToken == answers[1])
        #expect(tokens.refreshToken == "r2")

        let fresh = try Self.token(exp: now.timeIntervalSince1970 + 3600)
        let once = try await SecureTokenService.refreshedWithSkewGuard(refreshToken: "r0", now: { now }) { _ in
            .init(accessToken: fresh, refreshToken: "r1", expirationDate: now.addingTimeInterval(3600))
        }
        #expect(once.requests == 1)
    }

    @Test("a refreshed token whose own exp is within five minutes counts as expiring (the clock-skew retry)")
    func clockSkewRule() throws {
        let now = Date()
        #expect(SecureTokenService.expiresSoon(try Self.token(exp: now.timeIntervalSince1970 + 100), now: now))
        #expect(SecureTokenService.expiresSoon(try Self.token(exp: now.timeIntervalSince1970 - 10), now: now))
        #expect(!SecureTokenService.expiresSoon(try Self.token(exp: now.timeIntervalSince1970 + 3600), now: now))
        #expect(!SecureTokenService.expiresSoon("not a jwt", now: now))
    }
}
