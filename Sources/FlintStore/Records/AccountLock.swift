public import FlintCore

/// An account locked after repeated failed sign-ins (migration 23's `account_locks`), keyed by the tenant and the email
/// address the failures named (migration 25), so an address without an account is locked exactly as one with an
/// account is, and a tenant's failures never lock another tenant's address.
public struct AccountLock: Sendable, Equatable {
    /// The tenant whose sign-ins failed.
    public var tenant: TenantID
    /// The address (its stored, lower-cased form).
    public var email: String
    /// The failures in a row that locked it.
    public var failures: Int64
    /// When the lock began.
    public var lockedAt: Instant
    /// When it ends by itself.
    public var lockedUntil: Instant

    /// Creates a lock.
    public init(tenant: TenantID = .default, email: String, failures: Int64, lockedAt: Instant, lockedUntil: Instant) {
        (self.tenant, self.email, self.failures, self.lockedAt, self.lockedUntil) = (tenant, email, failures, lockedAt, lockedUntil)
    }

    /// Whether the lock still holds at `now`.
    public func holds(at now: Instant) -> Bool { now < lockedUntil }
}
