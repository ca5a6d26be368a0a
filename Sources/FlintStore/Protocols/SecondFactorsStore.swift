public import FlintCore

/// Second factors: enrolments, TOTP steps and recovery codes. Queries.
public protocol SecondFactorsReads: Sendable {
    /// The second factors of an account, oldest first.
    func mfaEnrollments(tenant: TenantID, localID: String) async throws -> [MFAEnrollmentRecord]
    /// How many unused recovery codes an account has.
    func recoveryCodesLeft(tenant: TenantID, localID: String) async throws -> Int
}

/// Second factors: enrolments, TOTP steps and recovery codes. Writes, inside a transaction.
public protocol SecondFactorsWrites: SecondFactorsReads {
    /// Adds a second factor. Throws ``StoreError/conflict(_:)`` (``StoreConflict/secondFactor``) if the account has this
    /// phone number enrolled already, or the enrolment ID is taken.
    func insertMFAEnrollment(_ enrollment: MFAEnrollmentRecord) async throws
    /// Removes a second factor; returns whether it existed.
    func deleteMFAEnrollment(tenant: TenantID, localID: String, enrollmentID: String) async throws -> Bool
    /// Accepts TOTP time step `step` for an enrolment if no later or equal step was accepted before (atomic: one
    /// winner among concurrent uses of one code).
    func acceptTOTPStep(tenant: TenantID, enrollmentID: String, step: Int64) async throws -> Bool
    /// Replaces an account's recovery codes with new ones (stored hashed).
    func replaceRecoveryCodes(tenant: TenantID, localID: String, hashes: [String], now: Instant) async throws
    /// Uses a recovery code atomically; returns whether it was there and unused.
    func useRecoveryCode(tenant: TenantID, localID: String, hash: String, now: Instant) async throws -> Bool
}
