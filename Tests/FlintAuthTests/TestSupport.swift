import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

extension FlintProcess {
    /// A new `Auth` addressed to this server through `useEmulator`, for a fresh app with its own store directory.
    func makeAuth(appName: String = "app-\(UUID().uuidString)", storeDirectory: URL? = nil) -> Auth {
        FlintApp.configure(name: appName, options: FlintOptions(apiKey: "test-key", projectID: "demo-flint"))
        let directory = storeDirectory ?? URL(fileURLWithPath: directory).appendingPathComponent("store-\(appName)")
        guard let app = FlintApp.app(name: appName) else { preconditionFailure("just configured") }
        let auth = Auth(app: app, storeDirectory: directory)
        auth.useEmulator(withHost: "127.0.0.1", port: port)
        return auth
    }
}

/// What a listener saw: the uid of each call (`nil` when signed out), in order.
final class ListenerLog: Sendable {
    private let calls = EventLog<String?>()

    func record(_ user: User?) { calls.record(user?.uid) }

    /// Waits until `count` calls have arrived (the call that completes them resumes the wait) and returns them.
    func waitFor(_ count: Int) async throws -> [String?] {
        let seen = await calls.wait(for: count)
        guard seen.count >= count else { throw FlintProcessError(message: "listener saw \(seen) instead of \(count) calls") }
        return seen
    }
}

/// The `FIRAuthErrorDomain` code of an error, or `nil`.
func authCode(_ error: any Error) -> Int? {
    let error = error as NSError
    return error.domain == AuthErrors.domain ? error.code : nil
}

/// Runs `operation`, which must fail with the FirebaseAuth error `code`; records `unexpected` when it succeeds.
func expectAuthError(
    _ code: AuthErrorCode, _ unexpected: String, sourceLocation: SourceLocation = #_sourceLocation, _ operation: () async throws -> Any
) async {
    do {
        _ = try await operation()
        Issue.record(Comment(rawValue: unexpected), sourceLocation: sourceLocation)
    } catch {
        #expect(authCode(error) == code.rawValue, "\(error)", sourceLocation: sourceLocation)
    }
}
