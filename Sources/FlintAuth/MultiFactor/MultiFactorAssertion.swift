/// Proof of a second factor, given to `MultiFactor.enroll(with:displayName:)` or
/// `MultiFactorResolver.resolveSignIn(with:)`.
public class MultiFactorAssertion: @unchecked Sendable {
    // Immutable after init; subclasses add only constants.

    /// ``PhoneMultiFactorID`` or ``TOTPMultiFactorID``.
    public let factorID: String

    init(factorID: String) { self.factorID = factorID }
}

/// An SMS code for a verification ID, as a second factor.
public final class PhoneMultiFactorAssertion: MultiFactorAssertion, @unchecked Sendable {
    let credential: PhoneAuthCredential

    init(credential: PhoneAuthCredential) {
        self.credential = credential
        super.init(factorID: PhoneMultiFactorID)
    }

    /// The verification ID and code, as the finalize calls take them.
    /// - Throws: `invalidCredential` for a credential that is not a verification ID and code.
    func verificationInfo() throws -> PhoneVerificationInfo {
        guard case .verification(let id, let code) = credential.proof else {
            throw AuthErrorCode.invalidCredential.error(detail: "A second factor needs a verification ID and code.")
        }
        return PhoneVerificationInfo(sessionInfo: id, code: code)
    }
}

/// A one-time password from an authenticator app, as a second factor.
public final class TOTPMultiFactorAssertion: MultiFactorAssertion, @unchecked Sendable {
    /// The secret being enrolled (enrolment only).
    let secret: TOTPSecret?
    /// The enrolled factor's ID (sign-in only).
    let enrollmentID: String?
    let oneTimePassword: String

    init(secret: TOTPSecret?, enrollmentID: String?, oneTimePassword: String) {
        self.secret = secret
        self.enrollmentID = enrollmentID
        self.oneTimePassword = oneTimePassword
        super.init(factorID: TOTPMultiFactorID)
    }
}

/// Builds SMS second-factor assertions.
public final class PhoneMultiFactorGenerator: Sendable {
    private init() {}

    /// An assertion from a phone credential (the verification ID of `verifyPhoneNumber(_:uiDelegate:multiFactorSession:)`
    /// or `verifyPhoneNumber(with:uiDelegate:multiFactorSession:)` and the texted code).
    public static func assertion(with phoneAuthCredential: PhoneAuthCredential) -> PhoneMultiFactorAssertion {
        PhoneMultiFactorAssertion(credential: phoneAuthCredential)
    }
}
