import Foundation

/// A user's tokens. Hands out the ID token while it has more than five minutes left, refreshes it otherwise (or
/// when forced), and lets concurrent callers share one refresh.
actor SecureTokenService {
    /// What is persisted and restored.
    struct Tokens: Codable, Sendable {
        var accessToken: String
        var refreshToken: String
        var expirationDate: Date

        init(accessToken: String, refreshToken: String, expirationDate: Date) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
            self.expirationDate = expirationDate
        }

        /// Tokens of a server answer, valid for `expiresIn` (seconds as a string, as the server sends them; an hour
        /// when absent or not a number of seconds between 0 and a day) from `now`.
        init(accessToken: String, refreshToken: String, expiresIn: String?, now: Date) {
            let given = expiresIn.flatMap(TimeInterval.init) ?? 3600
            let lifetime = given.isFinite && given >= 0 && given <= 86_400 ? given : 3600
            self.init(accessToken: accessToken, refreshToken: refreshToken, expirationDate: now.addingTimeInterval(lifetime))
        }
    }

    private(set) var tokens: Tokens {
        didSet { snapshot.withLock { $0 = tokens } }
    }
    /// The tokens as last set, readable without awaiting (for `User.refreshToken`).
    nonisolated let snapshot: Locked<Tokens>
    private var refresh: Task<Tokens, any Error>?
    /// How many refreshes this service has sent (concurrent callers share one; a clock-skew retry counts too).
    private(set) var refreshCount = 0

    /// Seconds before expiry at which a token is refreshed, as FirebaseAuth.
    static let refreshMargin: TimeInterval = 300

    /// The clock expiry is read on (the app's: `Backend.now`).
    nonisolated let now: @Sendable () -> Date

    init(tokens: Tokens, now: @escaping @Sendable () -> Date = { Date() }) {
        self.tokens = tokens
        self.now = now
        snapshot = Locked(tokens)
    }

    /// The current ID token, refreshed through `backend` when needed; `changed` tells whether it is new.
    func accessToken(forcingRefresh: Bool, backend: Backend) async throws -> (token: String, changed: Bool) {
        if !forcingRefresh, refresh == nil, tokens.expirationDate.timeIntervalSince(now()) > Self.refreshMargin {
            return (tokens.accessToken, false)
        }
        let task: Task<Tokens, any Error>
        if let running = refresh {
            task = running
        } else {
            let refreshToken = tokens.refreshToken
            let now = self.now
            task = Task { [weak self] in
                let (tokens, requests) = try await Self.refreshedWithSkewGuard(refreshToken: refreshToken, now: now) { token in
                    try await Self.refreshed(refreshToken: token, backend: backend)
                }
                if requests > 1 { await self?.countRefresh() }
                return tokens
            }
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

    private func countRefresh() { refreshCount += 1 }

    /// Refreshes through `refresh`, and once more when the new token's own `exp` is already within the margin of
    /// `now` (FirebaseAuth's clock-skew guard: the device's clock may be ahead of the server's).
    /// - Returns: the tokens to use and how many requests it took (1 or 2).
    static func refreshedWithSkewGuard(
        refreshToken: String, now: @Sendable () -> Date = { Date() }, refresh: @Sendable (String) async throws -> Tokens
    ) async throws -> (tokens: Tokens, requests: Int) {
        let first = try await refresh(refreshToken)
        guard expiresSoon(first.accessToken, now: now()) else { return (first, 1) }
        return (try await refresh(first.refreshToken), 2)
    }

    /// Whether the JWT's `exp` claim is within `refreshMargin` of `now`; `false` when it cannot be read.
    static func expiresSoon(_ token: String, now: Date) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = base64URLDecoded(String(parts[1])),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let exp = (claims["exp"] as? NSNumber)?.doubleValue
        else { return false }
        return exp - now.timeIntervalSince1970 <= refreshMargin
    }

    static func base64URLDecoded(_ text: String) -> Data? {
        var base64 = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    private static func refreshed(refreshToken: String, backend: Backend) async throws -> Tokens {
        let response: SecureTokenResponse = try await backend.post(
            host: "securetoken.googleapis.com", path: "/v1/token", SecureTokenRequest(refreshToken: refreshToken), idempotent: true)
        guard let access = response.access_token, !access.isEmpty else {
            throw AuthErrorCode.internalError.error(detail: "The token endpoint answered without an access token.")
        }
        return Tokens(accessToken: access, refreshToken: response.refresh_token ?? refreshToken, expiresIn: response.expires_in, now: backend.now())
    }
}
