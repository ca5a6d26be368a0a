public import FlintCore

/// A refresh token, stored by the SHA-256 of its value only.
public struct RefreshTokenRecord: Sendable, Equatable {
    /// The tenant of the session: a refresh reaches only this tenant's account.
    public var tenant: TenantID
    /// Hex SHA-256 of the token.
    public var tokenHash: String
    /// The user it belongs to.
    public var localID: String
    /// Issue time (compared with the user's `validSince`).
    public var createdAt: Instant
    /// `auth_time` of the sign-in that created it, a whole second (stored as seconds).
    public var authTime: Instant
    /// `firebase.sign_in_provider` of that sign-in.
    public var signInProvider: String
    /// `firebase.sign_in_second_factor`, when a second factor was used.
    public var secondFactor: SecondFactorKind?
    /// `firebase.second_factor_identifier`.
    public var secondFactorID: String?
    /// The developer claims of a custom-token sign-in (a JSON object), which every ID token of the session carries.
    public var developerClaims: String?

    /// Creates a record.
    public init(
        tenant: TenantID = .default, tokenHash: String, localID: String, createdAt: Instant, authTime: Instant, signInProvider: String,
        secondFactor: SecondFactorKind? = nil,
        secondFactorID: String? = nil, developerClaims: String? = nil
    ) {
        self.tenant = tenant
        self.tokenHash = tokenHash
        self.localID = localID
        self.createdAt = createdAt
        self.authTime = authTime
        self.signInProvider = signInProvider
        self.secondFactor = secondFactor
        self.secondFactorID = secondFactorID
        self.developerClaims = developerClaims
    }
}
