public import FlintCore

/// A stored out-of-band code (email sign-in, email verification, password reset). Only the SHA-256 of the code
/// is kept; the code itself travels in the emailed link.
public struct OobCodeRecord: Sendable, Equatable {
    /// The tenant the link was sent for.
    public var tenant: TenantID
    /// SHA-256 of the code, hex.
    public var codeHash: String
    /// What the code is for.
    public var requestType: OobCodeKind
    /// The lower-cased email the link was sent to.
    public var email: String
    /// The account it acts on (verification and reset codes).
    public var localID: String?
    /// Creation and expiry.
    public var createdAt: Instant
    public var expiresAt: Instant
    /// When the code was used, if it was.
    public var usedAt: Instant?
    /// The `continueUrl` it was sent with.
    public var continueURL: String?

    /// Creates a record.
    public init(
        tenant: TenantID = .default, codeHash: String, requestType: OobCodeKind, email: String, localID: String?, createdAt: Instant,
        expiresAt: Instant, usedAt: Instant? = nil,
        continueURL: String? = nil
    ) {
        self.tenant = tenant
        self.codeHash = codeHash
        self.requestType = requestType
        self.email = email
        self.localID = localID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
        self.continueURL = continueURL
    }
}

/// What presenting an oob code found.
public enum OobCodeUse: Sendable, Equatable {
    /// The code was valid and is now used.
    case used(OobCodeRecord)
    /// No such code, already used, or of another type.
    case invalid
    /// The code expired.
    case expired
}
