/// A user's second factors: list, enrol and remove them (`User.multiFactor`).
public final class MultiFactor: Sendable {
    private let user: User

    init(user: User) { self.user = user }

    /// The enrolled factors, as of the last sign-in, enrolment or `reload()`; phone numbers in full.
    public var enrolledFactors: [MultiFactorInfo] {
        (user.profile.current.mfaInfo ?? []).map(MultiFactorInfo.make)
    }

    /// A session to enrol a factor with: it carries the user's current ID token.
    /// - Throws: as `User.getIDToken()`.
    public func session() async throws -> MultiFactorSession {
        MultiFactorSession(.idToken(try await user.getIDToken()), backend: user.backend)
    }

    /// Enrols a second factor (`mfaEnrollment:finalize`): an SMS code sent by
    /// `PhoneAuthProvider.verifyPhoneNumber(_:uiDelegate:multiFactorSession:)`, or a first one-time password for a
    /// `TOTPSecret`. The session's tokens are re-issued with the factor's claims and the ID-token listeners fire.
    /// - Throws: `invalidVerificationCode`, `sessionExpired`, `missingVerificationCode`, `requiresRecentLogin`,
    ///   `secondFactorAlreadyEnrolled`, `maximumSecondFactorCountExceeded`, `unverifiedEmail`.
    public func enroll(with assertion: MultiFactorAssertion, displayName: String?) async throws {
        _ = try await enrollReturningRecoveryCodes(with: assertion, displayName: displayName)
    }

    /// Flint extension: `enroll(with:displayName:)`, returning the ten one-time recovery codes the server issues
    /// with an account's first factor (empty for later factors). Show them to the user once; Flint keeps only
    /// their hashes.
    public func enrollReturningRecoveryCodes(with assertion: MultiFactorAssertion, displayName: String?) async throws -> [String] {
        let request = try Self.finalizeRequest(assertion, displayName: displayName)
        var withToken = request
        withToken.idToken = try await user.getIDToken()
        let response = try await user.backend.callV2("accounts/mfaEnrollment:finalize", withToken, as: MFATokensResponse.self)
        try await user.adopt(response.tokens)
        return response.extra.recoveryCodes ?? []
    }

    /// Removes a second factor (`mfaEnrollment:withdraw`); the server ends the account's other sessions and this
    /// one gets new tokens.
    /// - Throws: `multiFactorInfoNotFound`, `requiresRecentLogin`.
    public func unenroll(with factorInfo: MultiFactorInfo) async throws {
        try await unenroll(withFactorUID: factorInfo.uid)
    }

    /// Removes the second factor with enrolment ID `factorUID`.
    public func unenroll(withFactorUID factorUID: String) async throws {
        let idToken = try await user.getIDToken()
        let response = try await user.backend.callV2(
            "accounts/mfaEnrollment:withdraw", WithdrawMFARequest(idToken: idToken, mfaEnrollmentId: factorUID),
            as: MFATokensResponse.self)
        do {
            try await user.adopt(response.tokens)
        } catch {
            // As FirebaseAuth: the factor is gone but this session could not be renewed, so it ends.
            user.auth?.signOutIfCurrent(user)
            throw error
        }
    }

    /// Flint extension: replaces the account's recovery codes with ten new ones (`mfaRecoveryCodes:regenerate`);
    /// the old ones stop working. Needs a recent sign-in.
    public func regenerateRecoveryCodes() async throws -> [String] {
        let idToken = try await user.getIDToken()
        let response = try await user.backend.callFlint(
            "/flint/v1/accounts/mfaRecoveryCodes:regenerate", IDTokenRequest(idToken: idToken), as: RecoveryCodes.self)
        return response.recoveryCodes ?? []
    }

    /// The finalize request for an enrolment assertion, without the first-factor field.
    static func finalizeRequest(_ assertion: MultiFactorAssertion, displayName: String?) throws -> FinalizeMFARequest {
        var request = FinalizeMFARequest(displayName: displayName)
        if let phone = assertion as? PhoneMultiFactorAssertion {
            request.phoneVerificationInfo = try phone.verificationInfo()
        } else if let totp = assertion as? TOTPMultiFactorAssertion, let secret = totp.secret {
            request.totpVerificationInfo = TOTPVerificationInfo(sessionInfo: secret.sessionInfo, verificationCode: totp.oneTimePassword)
        } else {
            throw AuthErrorCode.invalidCredential.error(detail: "This assertion cannot enrol a factor.")
        }
        return request
    }
}

extension User {
    /// The user's second factors.
    public var multiFactor: MultiFactor { MultiFactor(user: self) }
}
