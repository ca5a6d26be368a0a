public import FlintCore

/// A second factor enrolled on an account: a phone number (SMS codes) or a TOTP authenticator.
public struct MFAEnrollmentRecord: Sendable, Equatable {
    /// The tenant of its account.
    public var tenant: TenantID
    /// `mfaEnrollmentId`: 28 characters, unique.
    public var enrollmentID: String
    /// The account.
    public var localID: String
    /// ``SecondFactorKind/phone`` or ``SecondFactorKind/totp``.
    public var factor: SecondFactorKind
    /// The name the user gave it, if any.
    public var displayName: String?
    /// E.164 number (phone factors).
    public var phoneNumber: String?
    /// The TOTP secret, sealed with a server key (TOTP factors); never stored in the clear.
    public var sealedTOTPSecret: String?
    /// Enrolment time.
    public var enrolledAt: Instant
    /// The last TOTP time step accepted, so a code is used at most once.
    public var lastTOTPStep: Int64?

    /// Creates a record.
    public init(
        tenant: TenantID = .default, enrollmentID: String, localID: String, factor: SecondFactorKind, displayName: String?,
        phoneNumber: String? = nil,
        sealedTOTPSecret: String? = nil, enrolledAt: Instant, lastTOTPStep: Int64? = nil
    ) {
        self.tenant = tenant
        self.enrollmentID = enrollmentID
        self.localID = localID
        self.factor = factor
        self.displayName = displayName
        self.phoneNumber = phoneNumber
        self.sealedTOTPSecret = sealedTOTPSecret
        self.enrolledAt = enrolledAt
        self.lastTOTPStep = lastTOTPStep
    }
}
