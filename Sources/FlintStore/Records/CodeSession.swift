public import FlintCore

/// A pending SMS code: what was sent to which number, stored only as an HMAC.
public struct CodeSession: Sendable, Equatable {
    /// The tenant the code was sent for; one live session per tenant, number and purpose.
    public var tenant: TenantID
    /// 16 random bytes, hex-encoded; the `sessionInfo` handle names it.
    public var id: String
    /// E.164 number the code went to.
    public var phoneNumber: String
    /// What the code is for; a code sent for one purpose never serves another.
    public var purpose: CodePurpose
    /// HMAC-SHA256 of the code under the server secret, hex.
    public var codeHash: String
    /// Creation time.
    public var createdAt: Instant
    /// The code is refused from this instant on.
    public var expiresAt: Instant
    /// Wrong codes tried so far.
    public var attempts: Int
    /// When the right code was accepted, or `nil`.
    public var consumedAt: Instant?

    /// Creates a session record.
    public init(
        tenant: TenantID = .default, id: String, phoneNumber: String, purpose: CodePurpose, codeHash: String, createdAt: Instant, expiresAt: Instant,
        attempts: Int = 0,
        consumedAt: Instant? = nil
    ) {
        self.tenant = tenant
        self.id = id
        self.phoneNumber = phoneNumber
        self.purpose = purpose
        self.codeHash = codeHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.attempts = attempts
        self.consumedAt = consumedAt
    }

    /// Whether the session can still accept its code at `now`.
    public func isLive(now: Instant, maxAttempts: Int) -> Bool {
        consumedAt == nil && now < expiresAt && attempts < maxAttempts
    }
}

/// The result of presenting a code to a session; decided in one atomic statement.
public enum CodeSpendOutcome: Sendable, Equatable {
    /// The code was right; the session is now consumed. Exactly one presenter gets this.
    case spent(CodeSession)
    /// Wrong code; the attempt was counted. The session's number comes along, so callers can count the wrong answer
    /// against it without reading the session again.
    case wrongCode(attemptsLeft: Int, phoneNumber: String)
    /// The session's TTL has passed.
    case expired
    /// Too many wrong codes: the session is locked even for the right code.
    case locked
    /// No such session, or already consumed.
    case notFound
}

/// A phone sign-in's code spend with the read of the proven number that follows it
/// (``CodeSessionsWrites/spendPhoneSignInCode(sessionID:codeHash:now:maxAttempts:counters:)``).

public struct SpentCodeRead: Sendable {
    /// What the spend decided.
    public var outcome: CodeSpendOutcome
    /// With ``CodeSpendOutcome/spent(_:)``: the account holding the session's number, with its federated identities
    /// (`nil`: none holds it). Otherwise `nil`: nothing was read.
    public var owner: (user: UserRecord, identities: [FederatedIdentityRecord])?
    /// With ``CodeSpendOutcome/spent(_:)``: the counters' hits, in the order asked for. Otherwise empty.
    public var hits: [Int64]

    public init(outcome: CodeSpendOutcome, owner: (user: UserRecord, identities: [FederatedIdentityRecord])? = nil, hits: [Int64] = []) {
        self.outcome = outcome
        self.owner = owner
        self.hits = hits
    }
}
