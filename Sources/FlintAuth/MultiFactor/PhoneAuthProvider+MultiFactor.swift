/// SMS second factors: codes for enrolment and for sign-in.
extension PhoneAuthProvider {
    /// Texts a code to `phoneNumber`: to enrol it as a second factor when `multiFactorSession` comes from
    /// `MultiFactor.session()` (`mfaEnrollment:start`), or as a first-factor sign-in when it is `nil`. The app proves
    /// itself first as for a sign-in (silent push or web challenge through `uiDelegate`, none in test mode).
    /// - Returns: the verification ID for `credential(withVerificationID:verificationCode:)`.
    /// - Throws: `invalidPhoneNumber`, `unverifiedEmail`, `requiresRecentLogin`, `secondFactorAlreadyEnrolled`,
    ///   `maximumSecondFactorCountExceeded`, `tooManyRequests`, `invalidMultiFactorSession`.
    public func verifyPhoneNumber(
        _ phoneNumber: String, uiDelegate: (any AuthUIDelegate)? = nil, multiFactorSession: MultiFactorSession?
    ) async throws -> String {
        guard let session = multiFactorSession else { return try await verifyPhoneNumber(phoneNumber, uiDelegate: uiDelegate) }
        guard !phoneNumber.isEmpty else { throw AuthErrorCode.missingPhoneNumber.error() }
        let response = try await withAppVerification(uiDelegate: uiDelegate) { proof in
            // A signed-in user's ID token, or the pending credential of a sign-in that must enrol a factor first.
            let request = StartMFARequest(
                idToken: session.idToken, mfaPendingCredential: session.pendingCredential,
                phoneEnrollmentInfo: PhoneCodeRequest(phoneNumber: phoneNumber, proof: proof))
            return try await auth.backend.callV2("accounts/mfaEnrollment:start", request, as: StartMFAEnrollmentResponse.self)
        }
        return try PhoneCodeSession.verificationID(
            of: response.phoneSessionInfo, orFailWith: "mfaEnrollment:start answered without phoneSessionInfo.")
    }

    /// Texts a sign-in code to the enrolled factor `multiFactorInfo` (a resolver hint) for the pending sign-in of
    /// `multiFactorSession` (`mfaSignIn:start`).
    /// - Returns: the verification ID for `credential(withVerificationID:verificationCode:)`.
    /// - Throws: `invalidMultiFactorSession` (expired or spent), `multiFactorInfoNotFound`, `tooManyRequests`.
    public func verifyPhoneNumber(
        with multiFactorInfo: PhoneMultiFactorInfo, uiDelegate: (any AuthUIDelegate)? = nil, multiFactorSession: MultiFactorSession?
    ) async throws -> String {
        guard let pending = multiFactorSession?.pendingCredential else { throw AuthErrorCode.missingMultiFactorSession.error() }
        let response = try await withAppVerification(uiDelegate: uiDelegate) { proof in
            let request = StartMFARequest(
                mfaPendingCredential: pending, mfaEnrollmentId: multiFactorInfo.uid,
                phoneSignInInfo: PhoneCodeRequest(phoneNumber: multiFactorInfo.phoneNumber, proof: proof))
            return try await auth.backend.callV2("accounts/mfaSignIn:start", request, as: StartMFASignInResponse.self)
        }
        return try PhoneCodeSession.verificationID(
            of: response.phoneResponseInfo, orFailWith: "mfaSignIn:start answered without phoneResponseInfo.")
    }

    /// `verifyPhoneNumber(_:uiDelegate:multiFactorSession:)` with a completion handler.
    public func verifyPhoneNumber(
        _ phoneNumber: String, uiDelegate: (any AuthUIDelegate)? = nil, multiFactorSession: MultiFactorSession?,
        completion: ((String?, (any Error)?) -> Void)?
    ) {
        deliver(completion) {
            try await self.verifyPhoneNumber(phoneNumber, uiDelegate: uiDelegate, multiFactorSession: multiFactorSession)
        }
    }

    /// `verifyPhoneNumber(with:uiDelegate:multiFactorSession:)` with a completion handler.
    public func verifyPhoneNumber(
        with multiFactorInfo: PhoneMultiFactorInfo, uiDelegate: (any AuthUIDelegate)? = nil, multiFactorSession: MultiFactorSession?,
        completion: ((String?, (any Error)?) -> Void)?
    ) {
        deliver(completion) {
            try await self.verifyPhoneNumber(with: multiFactorInfo, uiDelegate: uiDelegate, multiFactorSession: multiFactorSession)
        }
    }
}
