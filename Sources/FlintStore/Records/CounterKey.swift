package import FlintCore

/// The name of a shared counter (``CountersWrites``): what is counted, and for whom. Every namespace is written here
/// once, as a static constructor; flows never spell a key.
///
/// ``rawValue`` is the stored `counter_key`, unchanged from the literals flows used before this type existed, so
/// counters keep counting across an upgrade. Secrets in a key (session texts, nonces, challenges) are only ever
/// there as their SHA-256.
public struct CounterKey: Sendable, Hashable, CustomStringConvertible {
    /// The stored key.
    public let rawValue: String

    /// A key as stored; the store's own (a refusal naming its key), never a flow's.
    init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The window a per-hour or per-day counter's key names.
    public enum Span: Sendable, Hashable {
        case hour, day

        var letter: String {
            switch self {
            case .hour: "h"
            case .day: "d"
            }
        }
    }

    /// The counters a phone number has of its own (``NumberCounter``: named before the number is known).
    public enum NumberCount: Sendable, Hashable {
        /// Texts sent to the number (sign-in and second-factor codes together).
        case sends(per: Span)
        /// Wrong codes the number was answered with.
        case wrongCodes(per: Span)

        /// What the key starts with; the number follows.
        var prefix: String {
            switch self {
            case .sends(let span): "sms-sent:\(span.letter):"
            case .wrongCodes(let span): "sms-wrong:\(span.letter):"
            }
        }
    }
}

// MARK: - Phone codes and SMS spend

extension CounterKey {
    /// A phone number's counter (E.164) in `tenant`.
    public static func number(tenant: TenantID, _ phoneNumber: String, _ count: NumberCount) -> CounterKey {
        CounterKey(rawValue: prefix(of: tenant) + count.prefix + phoneNumber)
    }

    /// What the key of a counter that names a user's identifier (an email, a number) starts with in `tenant`: nothing
    /// for the default tenant, whose keys are those from before tenants, `t:<id>:` for another.
    static func prefix(of tenant: TenantID) -> String {
        tenant.isDefault ? "" : "t:\(tenant.rawValue):"
    }

    /// Wrong codes presented with a fictional number's handle (its session text, hashed).
    public static func fictionalCodeTries(sessionInfo: String) -> CounterKey {
        CounterKey(rawValue: "sms-fictional:" + storedTokenHash(sessionInfo))
    }

    /// Texts sent at the request of a client address.
    public static func smsSends(clientIP: String, per span: Span) -> CounterKey {
        CounterKey(rawValue: "sms-ip:\(span.letter):\(clientIP)")
    }

    /// Texts sent to a destination country (its region code, or `+` and the calling code).
    public static func smsSends(country: String, per span: Span) -> CounterKey {
        CounterKey(rawValue: "sms-country:\(span.letter):\(country)")
    }

    /// The project's texts per UTC day (its SMS budget).
    public static let smsBudget = CounterKey(rawValue: "sms-budget:d")

    /// The marker of the day's SMS budget alert, raised once across nodes.
    public static let smsBudgetAlert = CounterKey(rawValue: "sms-budget-alert:d")
}

// MARK: - Sign-in failures and requests per address

extension CounterKey {
    /// Emails with codes sent to an address of `tenant`.
    public static func oobEmails(tenant: TenantID, to email: String) -> CounterKey { CounterKey(rawValue: prefix(of: tenant) + "oob:email:" + email) }

    /// Emails with codes asked for from a client address.
    public static func oobEmails(clientIP: String) -> CounterKey { CounterKey(rawValue: "oob:ip:" + clientIP) }

    /// Wrong passwords for an email address of `tenant`.
    public static func passwordFailures(tenant: TenantID, email: String) -> CounterKey {
        CounterKey(rawValue: prefix(of: tenant) + "pwfail:email:" + email)
    }

    /// Failed password sign-ins in a row for an email address, from any client address (the account lockout's count;
    /// one window from ``FlintCore/Instant/epoch``, cleared by a sign-in with the right password or an unlock).
    public static func accountFailures(tenant: TenantID, email: String) -> CounterKey {
        CounterKey(rawValue: prefix(of: tenant) + "acct-fail:" + email)
    }

    /// Wrong passwords from a client address.
    public static func passwordFailures(clientIP: String) -> CounterKey { CounterKey(rawValue: "pwfail:ip:" + clientIP) }

    /// Accounts created from a client address.
    public static func newAccounts(clientIP: String) -> CounterKey { CounterKey(rawValue: "newaccount:ip:" + clientIP) }

    /// Wrong passwords or codes at the web console's sign-in, per operator email.
    public static func consoleSignInFailures(email: String) -> CounterKey { CounterKey(rawValue: "console-fail:" + email) }

    /// The marker of a limit's `LOCKOUT` audit event, recorded once per window across nodes.
    public static func lockoutRecorded(_ limit: CounterKey) -> CounterKey { CounterKey(rawValue: "lockout:" + limit.rawValue) }
}

// MARK: - Second factors

extension CounterKey {
    /// Second-factor tries with one pending MFA credential (its nonce).
    public static func secondFactorTries(credentialNonce: [UInt8]) -> CounterKey {
        CounterKey(rawValue: "mfa:" + Hex.encode(credentialNonce))
    }

    /// Second-factor failures of an account of `tenant` (local IDs are unique within a tenant only).
    public static func secondFactorFailures(tenant: TenantID, localID: String) -> CounterKey {
        CounterKey(rawValue: prefix(of: tenant) + "mfa-user:" + localID)
    }

    /// Codes tried with one TOTP enrolment session (its text, hashed).
    public static func totpEnrollmentTries(session: String) -> CounterKey {
        CounterKey(rawValue: "totp-enroll:" + storedTokenHash(session))
    }

    /// The single use of a TOTP enrolment session (its text, hashed).
    public static func totpEnrollmentSpent(session: String) -> CounterKey {
        CounterKey(rawValue: "totp-enrolled:" + storedTokenHash(session))
    }
}

// MARK: - Passkeys, app verification, federated sign-in

extension CounterKey {
    /// The single use of a passkey challenge (its sealed text, hashed).
    public static func passkeyChallenge(_ text: String) -> CounterKey {
        CounterKey(rawValue: "passkey-challenge:" + storedTokenHash(text))
    }

    /// Passkey sign-in challenges issued to a client address.
    public static func passkeyChallenges(clientIP: String) -> CounterKey { CounterKey(rawValue: "pkstart:ip:" + clientIP) }

    /// Failed passkey sign-ins with one credential ID from one client address (`-` without one).
    public static func passkeyFailures(credentialID: String, clientIP: String?) -> CounterKey {
        CounterKey(rawValue: "pkfail:cred:\(credentialID):ip:\(clientIP ?? "-")")
    }

    /// Failed passkey sign-ins from a client address.
    public static func passkeyFailures(clientIP: String) -> CounterKey { CounterKey(rawValue: "pkfail:ip:" + clientIP) }

    /// The uses of an app-verification receipt, token or puzzle (its nonce).
    package static func appVerification(_ ticket: AppVerificationTicket) -> CounterKey {
        let namespace =
            switch ticket.purpose {
            case .receipt: "appreceipt:"
            case .challengeToken: "apptoken:"
            case .puzzle: "apppuzzle:"
            }
        return CounterKey(rawValue: namespace + Hex.encode(ticket.nonce))
    }

    /// `accounts:verifyClient` calls from a client address.
    public static func verifyClientCalls(clientIP: String) -> CounterKey { CounterKey(rawValue: "verifyclient:ip:" + clientIP) }

    /// Web challenge tokens issued to a client address.
    public static func webChallengeTokens(clientIP: String) -> CounterKey { CounterKey(rawValue: "webchallenge:ip:" + clientIP) }

    /// The single use of a provider's nonce (the raw nonce the app sent, hashed) at `provider`.
    public static func idpNonce(provider: String, nonce: String) -> CounterKey {
        CounterKey(rawValue: "idpnonce:\(provider):" + storedTokenHash(nonce))
    }
}
