/// What a security event in the audit log is. Stored as its raw text in `audit_events.kind`.
public struct AuditKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The stored text.
    public let rawValue: String

    /// A kind from its stored text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A session was issued, or a first factor passed and a second factor was asked for (`detail.method`,
    /// `detail.result`).
    public static let signIn = AuditKind(rawValue: "SIGN_IN")
    /// A sign-in endpoint refused (`detail.method`, `detail.error`).
    public static let signInFailed = AuditKind(rawValue: "SIGN_IN_FAILED")
    /// An abuse limit went over its maximum: recorded once per limit and window (`detail.limit`).
    public static let lockout = AuditKind(rawValue: "LOCKOUT")
    /// A second factor was enrolled.
    public static let mfaEnrolled = AuditKind(rawValue: "MFA_ENROLLED")
    /// A second factor was withdrawn.
    public static let mfaWithdrawn = AuditKind(rawValue: "MFA_WITHDRAWN")
    /// The account's recovery codes were replaced.
    public static let recoveryCodesRegenerated = AuditKind(rawValue: "MFA_RECOVERY_CODES_REGENERATED")
    /// A password was set, changed or removed by its user or an operator.
    public static let passwordChanged = AuditKind(rawValue: "PASSWORD_CHANGED")
    /// A password was reset with an emailed code.
    public static let passwordReset = AuditKind(rawValue: "PASSWORD_RESET")
    /// The account's email changed.
    public static let emailChanged = AuditKind(rawValue: "EMAIL_CHANGED")
    /// An earlier email was put back with a `RECOVER_EMAIL` code.
    public static let emailRecovered = AuditKind(rawValue: "EMAIL_RECOVERED")
    /// The account's sessions were revoked.
    public static let sessionsRevoked = AuditKind(rawValue: "SESSIONS_REVOKED")
    /// The account was deleted.
    public static let accountDeleted = AuditKind(rawValue: "ACCOUNT_DELETED")
    /// A request made with an operator credential that was not a read (`detail.method`, `detail.path`, `detail.status`).
    public static let adminAction = AuditKind(rawValue: "ADMIN_ACTION")
    /// The project config changed (`detail.updateMask`, or `detail.source` for a config file).
    public static let configChanged = AuditKind(rawValue: "CONFIG_CHANGED")
    /// A console operator signed in with password and TOTP code (`actor` is the operator's email).
    public static let consoleSignIn = AuditKind(rawValue: "CONSOLE_SIGN_IN")
    /// A console sign-in step refused (`detail.step`: `password`, `totp` or `locked`).
    public static let consoleSignInFailed = AuditKind(rawValue: "CONSOLE_SIGN_IN_FAILED")
    /// A console operator was added, or finished setting up (`detail.role`, `detail.step`).
    public static let consoleOperatorChanged = AuditKind(rawValue: "CONSOLE_OPERATOR_CHANGED")
    /// A passkey was enrolled (`detail.credentialId`).
    public static let passkeyEnrolled = AuditKind(rawValue: "PASSKEY_ENROLLED")
    /// Passkeys were withdrawn (`detail.credentialIds`).
    public static let passkeyWithdrawn = AuditKind(rawValue: "PASSKEY_WITHDRAWN")
    /// A blocking function was replayed against the audit log's sign-ins (`detail.functionUri`, `detail.trigger`,
    /// `detail.days` and the counts); nothing else of the dry run is stored.
    public static let blockingDryRun = AuditKind(rawValue: "BLOCKING_DRY_RUN")
    /// An account was created without signing in (an operator's `accounts` create, `flint users create`); sign-ups and
    /// first sign-ins are `SIGN_IN` events with `detail.newUser`.
    public static let accountCreated = AuditKind(rawValue: "ACCOUNT_CREATED")
    /// The account was disabled.
    public static let accountDisabled = AuditKind(rawValue: "ACCOUNT_DISABLED")
    /// The account was enabled again.
    public static let accountEnabled = AuditKind(rawValue: "ACCOUNT_ENABLED")
    /// An event webhook's subscription was added, removed, enabled or disabled, or a delivery replayed
    /// (`detail.action`, `detail.subscription`).
    public static let webhookChanged = AuditKind(rawValue: "WEBHOOK_CHANGED")
    /// A receiver accepted a webhook delivery (`detail.subscription`, `detail.webhookId`, `detail.type`, `detail.attempt`).
    public static let webhookDelivered = AuditKind(rawValue: "WEBHOOK_DELIVERED")
    /// A webhook delivery attempt failed (`detail.error`, `detail.final`: whether it was the last).
    public static let webhookFailed = AuditKind(rawValue: "WEBHOOK_FAILED")
    /// An email address was locked after failed password sign-ins in a row (`flint.accountLockout`; `detail.email`,
    /// `detail.failures`, `detail.lockedUntil`); the account's, when the address has one.
    public static let accountLocked = AuditKind(rawValue: "ACCOUNT_LOCKED")
    /// An operator lifted an account's lock and forgot its failures (`detail.email`, `detail.wasLocked`).
    public static let accountUnlocked = AuditKind(rawValue: "ACCOUNT_UNLOCKED")
    /// One session (refresh token) of the account was ended by its owner or an operator (`detail.session`, `detail.by`:
    /// `owner` or `operator`).
    public static let sessionEnded = AuditKind(rawValue: "SESSION_ENDED")
    /// The owner signed out everywhere else: every session but the kept one ended (`detail.kept`, `detail.count`,
    /// `detail.by`).
    public static let otherSessionsEnded = AuditKind(rawValue: "OTHER_SESSIONS_ENDED")
    /// A named admin credential was created, revoked or given a tenant limit (`detail.credential`, `detail.step`:
    /// `created`, `revoked` or `tenantsChanged`; `detail.scope`, `detail.tenants`, `detail.project`).
    public static let adminCredentialChanged = AuditKind(rawValue: "ADMIN_CREDENTIAL_CHANGED")

    /// Every kind Flint records, in the order above.
    public static let all: [AuditKind] = [
        signIn, signInFailed, lockout, mfaEnrolled, mfaWithdrawn, recoveryCodesRegenerated, passwordChanged, passwordReset, emailChanged,
        emailRecovered, sessionsRevoked, accountDeleted, adminAction, configChanged, consoleSignIn, consoleSignInFailed, consoleOperatorChanged,
        passkeyEnrolled, passkeyWithdrawn, blockingDryRun, accountCreated, accountDisabled, accountEnabled, webhookChanged, webhookDelivered,
        webhookFailed, accountLocked, accountUnlocked, sessionEnded, otherSessionsEnded,
        adminCredentialChanged,
    ]

    public var description: String { rawValue }
}
