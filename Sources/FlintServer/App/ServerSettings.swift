public import FlintCore
public import Tracing

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
    /// How long an SMS code stays valid.
    public var smsCodeTTL: Duration = .seconds(300)
    /// Wrong codes allowed per session before it locks.
    public var maxCodeAttempts: Int = 5
    /// Project config document loaded from `--config`, applied at start when the file changed since it was last
    /// applied (see ``configFileDigest``).
    public var configDocument: [String: JSONValue]?
    /// SHA-256 (hex) of the `--config` file's content; `nil` applies ``configDocument`` at every start.
    public var configFileDigest: String?
    /// How often each node re-reads keys and config from the store.
    public var reloadInterval: Duration = .seconds(30)
    /// `Cache-Control: max-age` of the public-key endpoints (sent in whole seconds).
    public var keyCacheMaxAge: Duration = .seconds(3600)
    /// The app name SMS texts mention; defaults to the project ID.
    public var appName: String?
    /// The public base URL of this service (`https://auth.example.com`), used in emailed action links; defaults to
    /// `http://{host}:{port}`.
    public var publicURL: String?
    /// How long an emailed link (sign-in, verification, reset) stays valid (default 6 hours).
    public var oobCodeTTL: Duration = .seconds(6 * 3600)
    /// The sender of emails (`From:`), an address.
    public var emailFrom: String = "noreply@localhost"
    /// The display name in `From:`; defaults to the app name.
    public var emailFromName: String?
    /// The scrypt cost of new password hashes.
    public var passwordHashParameters: PasswordHashParameters = .default
    /// Failed password sign-ins allowed per email address, and per client IP, in ``passwordFailureWindow``.
    public var passwordFailuresPerAccount: Int64 = 10
    public var passwordFailuresPerIP: Int64 = 100
    /// The window of the password failure limits.
    public var passwordFailureWindow: Duration = .seconds(900)
    /// Failed passkey sign-ins (`passkeySignIn:finalize`) allowed per credential ID from one client IP (never per
    /// credential alone, so others cannot lock its owner out), in ``passkeyLimitWindow``.
    public var passkeyFailuresPerCredential: Int64 = 10
    /// 0: no per-IP limit.
    public var passkeyFailuresPerIP: Int64 = 100
    /// Passkey sign-in challenges (`passkeySignIn:start`) one client IP may ask for in ``passkeyLimitWindow``; 0: no limit.
    public var passkeyChallengesPerIP: Int64 = 300
    /// The window of the passkey limits.
    public var passkeyLimitWindow: Duration = .seconds(900)
    /// Emails (links) one address may be sent, and one client IP may ask for, per hour.
    public var emailsPerAddressPerHour: Int64 = 10
    public var emailsPerIPPerHour: Int64 = 100
    /// New accounts one client IP may create per hour, whichever way (sign-up, anonymous, a first phone or email-link
    /// sign-in); 100 as Firebase documents. 0 turns the limit off (load tests from one address). Operator calls are
    /// not counted.
    public var newAccountsPerIPPerHour: Int64 = 100
    /// Wrong SMS codes one number may be answered with per hour and per day, across all its code sessions and
    /// fictional handles. 10 an hour is two sessions' worth of typos; at 20 a day, guessing a 6-digit code succeeds
    /// with odds of 20 in a million per number per day. Past either, even the right code is refused until the window
    /// ends (`TOO_MANY_ATTEMPTS_TRY_LATER`).
    public var wrongCodesPerNumberPerHour: Int64 = 10
    public var wrongCodesPerNumberPerDay: Int64 = 20
    /// How long outbox records that are done with (sent or failed) are kept for the delivery log (default 7 days);
    /// outside dev mode they hold no code, body or link by then, only metadata.
    public var outboxRetention: Duration = .seconds(7 * 86_400)
    /// How long audit events are kept (default 90 days); older ones are swept with the store.
    public var auditRetention: Duration = .seconds(90 * 86_400)
    /// Take the client IP from the last `X-Forwarded-For` entry (only behind one proxy that appends to it).
    public var trustForwardedFor: Bool = false
    /// How long a connection may stay silent before it is closed: a request stalled before its head is complete or in
    /// its body, or a keep-alive connection between requests. A request being answered is never cut.
    public var idleTimeout: Duration = .seconds(60)
    /// Connections one client IP (the TCP peer) may hold open at once; more are closed as they arrive.
    public var maxConnectionsPerIP: Int = 256
    /// A bearer credential that may read `GET /metrics` (besides the admin credential), for a Prometheus scraper
    /// that should hold nothing more.
    public var metricsToken: String?
    /// The tracer of requests, store transactions and outgoing calls (`flint serve --otlp-endpoint`: OpenTelemetry
    /// over OTLP/HTTP); `nil`, the default, turns tracing off: no tracing middleware, no span, no propagation header.
    public var tracer: (any Tracer)?

    /// The key that seals the secrets the store keeps (signing private keys, the server secret); `nil` keeps them in
    /// clear (tests, embedders with a throwaway store). `flint serve` always gives one.
    public var masterKey: MasterKey?

    /// Dev mode only: origins that serve Apple's or Google's paths in their place, by provider ID (`apple.com`,
    /// `google.com` → `http://127.0.0.1:8080`): keys, Google's `tokeninfo` and `userinfo`, and the authorization and
    /// token endpoints of the hosted handler's code flow, so tests run stand-in
    /// providers on loopback. Refused at start outside dev mode.
    public var identityProviderStandIns: [String: String] = [:]

    /// Default settings: dev mode on 127.0.0.1:9099, data in `./.flint`, project `demo-flint`.
    public init() {}

    /// The base of emailed links, without a trailing slash.
    package var publicBaseURL: String {
        var base = publicURL ?? "http://\(host == "0.0.0.0" || host == "::" ? "localhost" : host):\(port)"
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

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

extension ServerSettings: CustomStringConvertible {
    /// What the settings say without their credentials (admin token, API keys, metrics token, master key): values that
    /// hold settings (services, flows) may be printed into logs.
    public var description: String {
        "ServerSettings(project: \(projectID), address: \(host):\(port), dev: \(devMode), admin token: \(adminToken == nil ? "none" : "set"), "
            + "API keys: \(apiKeys.count), master key: \(masterKey?.id ?? "none"))"
    }
}
