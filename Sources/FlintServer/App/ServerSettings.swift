import FlintCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Everything `flint serve` was told at start (flags, environment, files), built once and passed down.
public struct ServerSettings: Sendable {
    /// Interface to bind.
    public var host: String = "127.0.0.1"
    /// Port to bind (0 = any free port).
    public var port: Int = 9099
    /// The project this server serves.
    public var projectID: String = "demo-flint"
    /// Dev mode: any API key, `Bearer owner` is admin, emulator helper routes on.
    public var devMode: Bool = true
    /// The production admin credential (a bearer token), if any.
    public var adminToken: String?
    /// API keys accepted in production mode; empty = any non-empty key.
    public var apiKeys: [String] = []
    /// How long an SMS code stays valid, seconds.
    public var smsCodeTTL: TimeInterval = 300
    /// Wrong codes allowed per session before it locks.
    public var maxCodeAttempts: Int = 5
    /// Project config document loaded from `--config`, applied at start.
    public var configDocument: [String: JSONValue]?
    /// How often each node re-reads keys and config from the store, seconds.
    public var reloadInterval: TimeInterval = 30
    /// `Cache-Control: max-age` of the public-key endpoints, seconds.
    public var keyCacheMaxAge: Int = 3600
    /// The app name SMS texts mention; defaults to the project ID.
    public var appName: String?

    /// Default settings: dev mode on 127.0.0.1:9099, data in `./.flint`, project `demo-flint`.
    public init() {}

    /// Whether `token` (from `Authorization: Bearer`) is the admin credential.
    func isAdminCredential(_ token: String) -> Bool {
        if devMode, token.lowercased() == "owner" { return true }
        if let adminToken, !adminToken.isEmpty {
            return constantTimeEquals(Array(token.utf8), Array(adminToken.utf8))
        }
        return false
    }

    /// Whether an API key is accepted.
    func acceptsAPIKey(_ key: String) -> Bool {
        if devMode || apiKeys.isEmpty { return true }
        return apiKeys.contains { constantTimeEquals(Array($0.utf8), Array(key.utf8)) }
    }
}
