public import FlintCore

/// An account locked after repeated failed sign-ins (migration 23's `account_locks`), keyed by the email address the
/// failures named, so an address without an account is locked exactly as one with an account is.
public struct AccountLock: Sendable, Equatable {
    /// The address (its stored, lower-cased form).
    public var email: String
    /// The failures in a row that locked it.
    public var failures: Int64
    /// When the lock began.
    public var lockedAt: Instant
    /// When it ends by itself.
    public var lockedUntil: Instant

    /// Creates a lock.
    public init(email: String, failures: Int64, lockedAt: Instant, lockedUntil: Instant) {
        (self.email, self.failures, self.lockedAt, self.lockedUntil) = (email, failures, lockedAt, lockedUntil)
    }

    /// Whether the lock still holds at `now`.
    public func holds(at now: Instant) -> Bool { now < lockedUntil }
}
