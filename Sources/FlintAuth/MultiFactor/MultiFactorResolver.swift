import Foundation

/// The key of the `MultiFactorResolver` in a `secondFactorRequired` error's `userInfo`.
public let AuthErrorUserInfoMultiFactorResolverKey = "FIRAuthErrorUserInfoMultiFactorResolverKey"

/// Finishes a sign-in that needs a second factor: found under ``AuthErrorUserInfoMultiFactorResolverKey`` in the
/// `secondFactorRequired` error a first-factor sign-in threw.
public final class MultiFactorResolver: Sendable {
    /// The pending sign-in, for `verifyPhoneNumber(with:uiDelegate:multiFactorSession:)`.
    public let session: MultiFactorSession
    /// The account's factors (phone numbers masked), to let the user choose one.
    public let hints: [MultiFactorInfo]
    /// The `Auth` the sign-in completes in.
    public let auth: Auth
    /// Flint extension: the project requires a second factor and this account has none, so `hints` is empty and the
    /// sign-in completes by enrolling one — `verifyPhoneNumber(_:uiDelegate:multiFactorSession:)` or
    /// `TOTPMultiFactorGenerator.generateSecret(with:)` with ``session``, then `resolveSignIn(with:)`.
    public let isEnrollmentRequired: Bool
    private let providerID: String

    init(pendingCredential: String, hints: [MultiFactorInfo], enrollmentRequired: Bool, providerID: String, auth: Auth) {
        session = MultiFactorSession(.pendingCredential(pendingCredential), backend: auth.backend)
        self.hints = hints
        self.auth = auth
        self.isEnrollmentRequired = enrollmentRequired
        self.providerID = providerID
    }

    /// Completes the sign-in with a second factor (`mfaSignIn:finalize`), or — when ``isEnrollmentRequired`` — by
    /// enrolling one (`mfaEnrollment:finalize`). The user becomes `Auth.currentUser`.
    /// - Throws: `invalidVerificationCode`, `sessionExpired`, `invalidMultiFactorSession` (the pending sign-in
    ///   expired or was spent), `multiFactorInfoNotFound`, `tooManyRequests`.
    @discardableResult
    public func resolveSignIn(with assertion: MultiFactorAssertion) async throws -> AuthDataResult {
        guard let pending = session.pendingCredential else { throw AuthErrorCode.invalidMultiFactorSession.error() }
        let response: MFATokensResponse
        if isEnrollmentRequired {
            var request = try MultiFactor.finalizeRequest(assertion, displayName: nil)
            request.mfaPendingCredential = pending
            response = try await auth.backend.callV2("accounts/mfaEnrollment:finalize", request)
        } else {
            var request = FinalizeMFARequest(mfaPendingCredential: pending)
            if let phone = assertion as? PhoneMultiFactorAssertion {
                request.phoneVerificationInfo = try phone.verificationInfo()
            } else if let totp = assertion as? TOTPMultiFactorAssertion, let enrollmentID = totp.enrollmentID {
                request.mfaEnrollmentId = enrollmentID
                request.totpVerificationInfo = TOTPVerificationInfo(verificationCode: totp.oneTimePassword)
            } else {
                throw AuthErrorCode.invalidCredential.error(detail: "This assertion cannot complete a sign-in.")
            }
            response = try await auth.backend.callV2("accounts/mfaSignIn:finalize", request)
        }
        return try await auth.completeSignIn(response.tokens, isNewUser: false, providerID: providerID)
    }

    /// Flint extension: completes the sign-in with one of the account's one-time recovery codes instead of a
    /// factor (for a lost phone or authenticator). Each code works once.
    @discardableResult
    public func resolveSignIn(withRecoveryCode recoveryCode: String) async throws -> AuthDataResult {
        guard let pending = session.pendingCredential, !isEnrollmentRequired else {
            throw AuthErrorCode.invalidMultiFactorSession.error()
        }
        let response: MFATokensResponse = try await auth.backend.callV2(
            "accounts/mfaSignIn:finalize", FinalizeMFARequest(mfaPendingCredential: pending, recoveryCode: recoveryCode))
        return try await auth.completeSignIn(response.tokens, isNewUser: false, providerID: providerID)
    }

    /// `resolveSignIn(with:)` with a completion handler.
    public func resolveSignIn(
        with assertion: MultiFactorAssertion, completion: ((AuthDataResult?, (any Error)?) -> Void)? = nil
    ) {
        deliver(completion) { try await self.resolveSignIn(with: assertion) }
    }

    /// The `secondFactorRequired` error of a first-factor answer that carried a pending credential.
    static func secondFactorRequiredError(_ response: SignInResponse, pendingCredential: String, providerID: String, auth: Auth) -> NSError {
        let hints = (response.mfaInfo ?? []).compactMap(StoredMultiFactorInfo.init).map(MultiFactorInfo.make)
        let resolver = MultiFactorResolver(
            pendingCredential: pendingCredential, hints: hints, enrollmentRequired: response.mfaEnrollmentRequired ?? false,
            providerID: providerID, auth: auth)
        var userInfo: [String: Any] = [AuthErrorUserInfoMultiFactorResolverKey: resolver]
        if let email = response.email { userInfo[AuthErrors.userInfoEmailKey] = email }
        return AuthErrorCode.secondFactorRequired.error(userInfo: userInfo)
    }
}
