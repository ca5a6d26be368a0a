import Foundation

/// A user's tokens. Hands out the ID token while it has more than five minutes left, refreshes it otherwise (or
/// when forced), and lets concurrent callers share one refresh.
actor SecureTokenService {
    /// What is persisted and restored.
    struct Tokens: Codable, Sendable {
        var accessToken: String
        var refreshToken: String
        var expirationDate: Date
    }

    private(set) var tokens: Tokens
    private var refresh: Task<Tokens, any Error>?
    /// How many refreshes this service has sent (concurrent callers share one).
    private(set) var refreshCount = 0

    /// Seconds before expiry at which a token is refreshed, as FirebaseAuth.
    static let refreshMargin: TimeInterval = 300

    init(tokens: Tokens) { self.tokens = tokens }

    /// The current ID token, refreshed through `backend` when needed; `changed` tells whether it is new.
    func accessToken(forcingRefresh: Bool, backend: Backend) async throws -> (token: String, changed: Bool) {
        if !forcingRefresh, refresh == nil, tokens.expirationDate.timeIntervalSinceNow > Self.refreshMargin {
            return (tokens.accessToken, false)
        }
        let task: Task<Tokens, any Error>
        if let running = refresh {
            task = running
        } else {
            let refreshToken = tokens.refreshToken
            task = Task { try await Self.refreshed(refreshToken: refreshToken, backend: backend) }
            refresh = task
            refreshCount += 1
        }
        defer { if refresh == task { refresh = nil } }
        let previous = tokens.accessToken
        let new = try await task.value
        tokens = new
        return (new.accessToken, new.accessToken != previous)
    }

    /// Replaces the tokens (after a re-authentication or a link that issued new ones).
    func replace(with tokens: Tokens) { self.tokens = tokens }

    private static func refreshed(refreshToken: String, backend: Backend) async throws -> Tokens {
        let response: SecureTokenResponse = try await backend.post(
            host: "securetoken.googleapis.com", path: "/v1/token", SecureTokenRequest(refreshToken: refreshToken), idempotent: true)
        guard let access = response.access_token, !access.isEmpty else {
            throw AuthErrorCode.internalError.error(detail: "The token endpoint answered without an access token.")
        }
        let lifetime = response.expires_in.flatMap(TimeInterval.init) ?? 3600
        return Tokens(
            accessToken: access, refreshToken: response.refresh_token ?? refreshToken,
            expirationDate: Date(timeIntervalSinceNow: lifetime))
    }
}
