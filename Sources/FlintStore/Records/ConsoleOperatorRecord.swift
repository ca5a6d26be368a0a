public import FlintCore

/// What a console operator may do, stored as its raw text.
public struct ConsoleRole: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The stored text.
    public let rawValue: String

    /// A role from its stored text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Every page and every action.
    public static let admin = ConsoleRole(rawValue: "admin")
    /// Every page, no action: write requests answer 403.
    public static let read = ConsoleRole(rawValue: "read")

    /// The roles Flint knows.
    public static let all: [ConsoleRole] = [.admin, .read]

    public var description: String { rawValue }
}

/// An operator of the web console (`flint admin operators add EMAIL`): an account of its own, apart from the
/// project's users, signed in with a password and a TOTP code.
public struct ConsoleOperatorRecord: Sendable, Equatable {
    /// The lower-cased email, the operator's name in the audit log.
    public var email: String
    public var role: ConsoleRole
    /// The PHC scrypt hash of the password; `nil` until the operator completes the setup link.
    public var passwordHash: String?
    /// The TOTP secret, AES-GCM sealed as second factors' secrets are; `nil` until setup completes.
    public var totpSecret: String?
    /// The last TOTP step accepted, so a code is never accepted twice.
    public var lastTOTPStep: Int64?
    /// Hex SHA-256 of the one-time setup token, while one is outstanding.
    public var setupTokenHash: String?
    /// When the setup token stops working (ms).
    public var setupExpiresAt: Instant?
    /// Milliseconds since epoch.
    public var createdAt: Instant
    /// The tenants the operator may see and act in (migration 27), ``TenantID/default`` for the project's own users;
    /// `nil` for every tenant and the project (no limit). Kept sorted.
    public var tenants: [TenantID]?

    /// An operator.
    public init(
        email: String, role: ConsoleRole, passwordHash: String? = nil, totpSecret: String? = nil, lastTOTPStep: Int64? = nil,
        setupTokenHash: String? = nil, setupExpiresAt: Instant? = nil, createdAt: Instant, tenants: [TenantID]? = nil
    ) {
        (self.email, self.role, self.passwordHash, self.totpSecret, self.lastTOTPStep) = (email, role, passwordHash, totpSecret, lastTOTPStep)
        (self.setupTokenHash, self.setupExpiresAt, self.createdAt) = (setupTokenHash, setupExpiresAt, createdAt)
        self.tenants = TenantID.limit(tenants)
    }

    /// Whether the operator may see and act in `tenant`.
    public func mayUse(_ tenant: TenantID) -> Bool { tenants?.contains(tenant) ?? true }

    /// Whether the operator may sign in: a password and a TOTP secret are set.
    public var isSetUp: Bool { passwordHash != nil && totpSecret != nil }
}
