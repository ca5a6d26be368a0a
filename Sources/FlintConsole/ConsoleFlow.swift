import Crypto
import FlintCore
import FlintServer
import FlintStore

/// The web console's rules (`/console`): operators' setup, sign-in (password, then a TOTP code), sessions, and the
/// user actions it offers, which run the admin API's own flows (``AccountsFlow``), never a store path of their own.
struct ConsoleFlow: Sendable {
    let node: Node
    /// The operator's `accounts:lookup`, `accounts:update` and `accounts:delete`.
    let accounts: AccountsFlow
    /// Seals and opens TOTP secrets as second factors' are.
    let mfa: MFAFlow
    /// The operator's `accounts:sendOobCode` (password-reset and verification emails).
    let emailLink: EmailLinkFlow
    /// The node's signing keys, rotated as `keys:rotate` does.
    let keys: KeyCache
    /// The event webhook subscriptions, managed as the admin API does.
    let webhooks: WebhookSubscriptions
    /// The operator's account create (`projects/{p}/accounts`), as `flint users create` runs it.
    let operatorAccounts: UserConsole
    /// Completes a provider's test sign-in (``Flows/testProviderSignIn(requestUri:sessionID:)``).
    let testSignIn: @Sendable (_ requestUri: String, _ sessionID: String) async throws -> ProviderSignInTest
    /// Accounts' sessions per device, listed and ended as the admin API does.
    let sessions: UserSessions
    /// The tenants, created, changed and deleted as the admin API does.
    let tenantAdmin: TenantAdmin
    /// The node's copy of the tenants, which the tenant pages resolve.
    let tenants: TenantCache

    /// A session ends after this long without a request.
    static let idleTimeout: Duration = .seconds(30 * 60)
    /// A session ends this long after sign-in, however busy.
    static let lifetime: Duration = .seconds(12 * 3600)
    /// How long the TOTP step may wait after the password step.
    static let totpStepLifetime: Duration = .seconds(5 * 60)
    /// Failed sign-ins (password or TOTP) per operator within ``failureWindow`` before further attempts are refused.
    static let maxFailures: Int64 = 5
    /// The window of ``maxFailures``.
    static let failureWindow: Duration = .seconds(15 * 60)
    /// How long a setup link works.
    static let setupValidity: Duration = .seconds(24 * 3600)
    /// TOTP codes: 6 digits, 30 s, SHA-1, one step either side.
    static let totp = TOTPParameters()
    static let totpAdjacentIntervals = 1

    /// Over https the cookie is `__Host-flint_console` with `Secure`; over plain http (dev) `Secure` would stop the
    /// browser from sending it, so it is `flint_console` without it (the `__Host-` prefix requires `Secure`).
    var isSecure: Bool { node.settings.publicBaseURL.lowercased().hasPrefix("https://") }

    /// The session cookie's name.
    var cookieName: String { isSecure ? "__Host-flint_console" : "flint_console" }

    /// The `Set-Cookie` value carrying `token` (or clearing the cookie when `nil`).
    func setCookie(_ token: String?) -> String {
        var parts = ["\(cookieName)=\(token ?? "")", "Path=/", "HttpOnly", "SameSite=Strict"]
        if token == nil { parts.append("Max-Age=0") }
        if isSecure { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }

    /// A fresh random token (256 bits, base64url): session cookies and setup links.
    func newToken() -> String { Base64URL.encode(node.random.bytes(32)) }

    /// How a token is stored: hex SHA-256, so the table alone opens no session.
    static func hash(_ token: String) -> String { Hex.encode(SHA256.hash(data: Array("flint console session\u{0}\(token)".utf8))) }

    /// The CSRF token of a session: derived from its cookie token (which the page cannot read), so it needs no storage
    /// and a page of another session's forms is useless here.
    static func csrfToken(for token: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array("flint console csrf\u{0}\(token)".utf8))))
    }

    /// The counter of an operator's failed sign-ins.
    static func failureKey(_ email: String) -> CounterKey { .consoleSignInFailures(email: email) }
}
