public import FlintCore

/// A stored account.
public struct UserRecord: Sendable, Equatable {
    /// The tenant the account belongs to; its email, number and ID are unique within it.
    public var tenant: TenantID
    /// The 28-character user ID (`localId`).
    public var localID: String
    /// E.164 phone number, unique across users.
    public var phoneNumber: String?
    /// Lower-cased email, unique across users.
    public var email: String?
    /// Whether the email has been verified.
    public var emailVerified: Bool = false
    /// `displayName`.
    public var displayName: String?
    /// `photoUrl`.
    public var photoURL: String?
    /// Disabled accounts cannot sign in or refresh.
    public var disabled: Bool = false
    /// Creation time.
    public var createdAt: Instant
    /// Last sign-in.
    public var lastLoginAt: Instant?
    /// Last token refresh.
    public var lastRefreshAt: Instant?
    /// Tokens issued before this instant are revoked; a whole second (stored as seconds, as the wire carries it).
    public var validSince: Instant
    /// How many times the account's sessions were revoked. ID tokens carry the generation they were minted under;
    /// one from an earlier generation is revoked even when it was minted in the same second as ``validSince``.
    public var revocationGeneration: Int64 = 0
    /// Developer claims as a JSON object text.
    public var customAttributes: String?
    /// The password's PHC hash string (`$scrypt$...`), if the account has a password.
    public var passwordHash: String?
    /// When the password was last set.
    public var passwordUpdatedAt: Instant?
    /// Whether the account has signed in with an email link (`emailLink` sign-in method).
    public var emailLinkSignIn: Bool = false

    /// Creates a record.
    public init(
        tenant: TenantID = .default, localID: String, phoneNumber: String? = nil, createdAt: Instant, validSince: Instant
    ) {
        self.tenant = tenant
        self.localID = localID
        self.phoneNumber = phoneNumber
        self.createdAt = createdAt
        self.validSince = validSince
    }
}
