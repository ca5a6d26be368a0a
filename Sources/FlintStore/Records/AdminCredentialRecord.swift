public import FlintCore

/// What a named admin credential may do, stored as its raw text.
public struct AdminScope: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The stored text.
    public let rawValue: String

    /// A scope from its stored text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Reads only: lookups, listings, queries, configuration reads.
    public static let read = AdminScope(rawValue: "read")
    /// Everything the operator may do.
    public static let write = AdminScope(rawValue: "write")

    public var description: String { rawValue }
}

/// A named admin credential (`flint admin tokens create NAME`): a bearer secret stored only as its SHA-256.
public struct AdminCredentialRecord: Sendable, Equatable {
    /// Hex SHA-256 of the secret.
    public var secretHash: String
    /// The operator's name for it, written in the log of every call it makes.
    public var name: String
    /// What it may do.
    public var scope: AdminScope
    /// Creation time.
    public var createdAt: Instant
    /// When it was revoked; a revoked credential is refused.
    public var revokedAt: Instant?
    /// The tenants it may act in (migration 31), ``TenantID/default`` for the project's own users and settings; `nil`:
    /// every tenant and the project. Kept sorted, without repeats.
    public var tenants: [TenantID]?

    /// Creates a record.
    public init(
        secretHash: String, name: String, scope: AdminScope, createdAt: Instant, revokedAt: Instant? = nil, tenants: [TenantID]? = nil
    ) {
        self.secretHash = secretHash
        self.name = name
        self.scope = scope
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.tenants = TenantID.limit(tenants)
    }

    /// Whether it may act in `tenant`.
    public func mayUse(_ tenant: TenantID) -> Bool { tenants?.contains(tenant) ?? true }
}
