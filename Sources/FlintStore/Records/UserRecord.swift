/// A stored account.
public struct UserRecord: Sendable, Equatable {
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
    /// Creation time, milliseconds since epoch.
    public var createdAt: Int64
    /// Last sign-in, milliseconds since epoch.
    public var lastLoginAt: Int64?
    /// Last token refresh, milliseconds since epoch.
    public var lastRefreshAt: Int64?
    /// Tokens issued before this instant (seconds since epoch) are revoked.
    public var validSince: Int64
    /// How many times the account's sessions were revoked. ID tokens carry the generation they were minted under;
    /// one from an earlier generation is revoked even when it was minted in the same second as ``validSince``.
    public var revocationGeneration: Int64 = 0
    /// Developer claims as a JSON object text.
    public var customAttributes: String?
    /// The password's PHC hash string (`$scrypt$...`), if the account has a password.
    public var passwordHash: String?
    /// When the password was last set, milliseconds since epoch.
    public var passwordUpdatedAt: Int64?
    /// Whether the account has signed in with an email link (`emailLink` sign-in method).
    public var emailLinkSignIn: Bool = false

    /// Creates a record.
    public init(localID: String, phoneNumber: String? = nil, createdAt: Int64, validSince: Int64) {
        self.localID = localID
        self.phoneNumber = phoneNumber
        self.createdAt = createdAt
        self.validSince = validSince
    }
}
