/// Creates TOTP secrets and builds TOTP second-factor assertions.
public final class TOTPMultiFactorGenerator: Sendable {
    private init() {}

    /// A new shared secret for the enrolling user of `session` (`mfaEnrollment:start` with `totpEnrollmentInfo`),
    /// to show as a QR code or key and to prove with a first one-time password.
    /// - Throws: from the server, `invalidMultiFactorSession` for a sign-in session of an account that already has factors;
    ///   `unverifiedEmail`, `requiresRecentLogin`, `maximumSecondFactorCountExceeded`, `operationNotAllowed` (TOTP is
    ///   off for the project) from the server.
    public static func generateSecret(with session: MultiFactorSession) async throws -> TOTPSecret {
        let response = try await session.backend.callV2(
            "accounts/mfaEnrollment:start",
            StartMFARequest(idToken: session.idToken, mfaPendingCredential: session.pendingCredential, totpEnrollmentInfo: .init()),
            as: StartMFAEnrollmentResponse.self)
        guard let info = response.totpSessionInfo, let key = info.sharedSecretKey, !key.isEmpty,
            let sessionInfo = info.sessionInfo, !sessionInfo.isEmpty
        else {
            throw AuthErrorCode.internalError.error(detail: "mfaEnrollment:start answered without a TOTP secret.")
        }
        return TOTPSecret(
            secretKey: key, hashingAlgorithm: info.hashingAlgorithm ?? "SHA1", codeLength: info.verificationCodeLength ?? 6,
            period: info.periodSec ?? 30, sessionInfo: sessionInfo,
            enrollmentCompletionDeadline: info.finalizeEnrollmentTime.flatMap(StoredMultiFactorInfo.date(rfc3339:)))
    }

    /// `generateSecret(with:)` with a completion handler.
    public static func generateSecret(
        with session: MultiFactorSession, completion: @escaping (TOTPSecret?, (any Error)?) -> Void
    ) {
        deliver(completion) { try await generateSecret(with: session) }
    }

    /// An assertion that enrols `secret`, proven by a one-time password the authenticator app shows for it.
    public static func assertionForEnrollment(with secret: TOTPSecret, oneTimePassword: String) -> TOTPMultiFactorAssertion {
        TOTPMultiFactorAssertion(secret: secret, enrollmentID: nil, oneTimePassword: oneTimePassword)
    }

    /// An assertion that signs in with the enrolled TOTP factor `enrollmentID` (a hint's `uid`).
    public static func assertionForSignIn(withEnrollmentID enrollmentID: String, oneTimePassword: String) -> TOTPMultiFactorAssertion {
        TOTPMultiFactorAssertion(secret: nil, enrollmentID: enrollmentID, oneTimePassword: oneTimePassword)
    }
}
