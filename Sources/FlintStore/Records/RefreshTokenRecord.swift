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
    /// The device it was issued to, as a short name (`DeviceName`), when the request told.
    public var device: String?
    /// The client address of the sign-in.
    public var firstIP: String?
    /// The client address of its latest recorded use.
    public var lastIP: String?
    /// Its latest recorded use (a sign-in or a refresh), at most ``lastUsedPrecision`` behind; its creation for a
    /// session stored before migration 22.
    public var lastUsedAt: Instant

    /// How far ``lastUsedAt`` may lag: a refresh records its use only when the recorded one is older than this, or its
    /// address changed, so most refreshes write nothing.
    public static let lastUsedPrecision: Duration = .seconds(600)

    /// The session's ID: the first 16 hex digits of the stored hash — what its ID tokens carry (`firebase.session_id`)
    /// and what its owner and operators name it by. It tells nothing about the token.
    public var sessionID: String { String(tokenHash.prefix(Self.sessionIDLength)) }
    /// The length of ``sessionID``.
    public static let sessionIDLength = 16

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
        self.lastUsedAt = createdAt
    }
}
