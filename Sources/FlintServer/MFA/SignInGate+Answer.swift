import FlintCore
import FlintStore
import Hummingbird

/// How a first-factor sign-in ended, as every first-factor answer carries it: the session's tokens, or the pending
/// credential and hints of the second-factor challenge.
struct SignInAnswer: Encodable, Sendable {
    var idToken: String?
    var refreshToken: String?
    var expiresIn: String?
    var mfaPendingCredential: String?
    var mfaInfo: [MFAInfoJSON]?
    /// Flint extension: in a MANDATORY project, the account must enrol a second factor (with the pending credential)
    /// before it gets tokens.
    var mfaEnrollmentRequired: Bool?
}

/// A first-factor endpoint's answer: its own fields and the ``SignInAnswer``, in one JSON object.
struct SignInReply<Fields: Encodable & Sendable>: ResponseEncodable {
    var fields: Fields
    var session = SignInAnswer()

    func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
        try session.encode(to: encoder)
    }
}

extension SignInGate {
    /// Turns what a first-factor transaction decided into its answer: signs the ID token of a session whose refresh
    /// token was committed (keeping a linking session's sign-in time and second factor), or seals the challenge.
    /// - Throws: the failure the transaction returned.
    /// - Returns: the account, whether the sign-in created it, and the answer's session part.
    func answer(
        _ outcome: SignInOutcome, provider: String, linking: VerifiedIDToken? = nil, developerClaims: [String: JSONValue]? = nil, now: Instant
    ) throws -> (user: UserRecord, isNew: Bool, session: SignInAnswer) {
        switch outcome {
        case .failed(let error):
            throw error
        case .secondFactorRequired(let user, let enrollments, let isNew, let claims):
            SignInProbe.secondFactorRequired()
            SignInProbe.answered(isNew: isNew, provider: provider)
            let challenge = try mfaChallenge(
                user: user, provider: provider, enrollments: enrollments, sessionClaims: claims ?? developerClaims, now: now)
            let session = SignInAnswer(
                mfaPendingCredential: challenge.pendingCredential, mfaInfo: challenge.hints, mfaEnrollmentRequired: enrollments.isEmpty ? true : nil)
            return (user, isNew, session)
        case .signedIn(let user, let refreshToken, let isNew, let identities, let claims):
            SignInProbe.answered(isNew: isNew, provider: provider)
            let tokens = try sessions.sessionTokens(
                user: user, refreshToken: refreshToken, provider: provider, now: now, secondFactor: linking.flatMap(SecondFactorClaim.init),
                authTime: linking?.authTime, developerClaims: claims ?? developerClaims, identities: identities)
            return (user, isNew, SignInAnswer(idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn))
        }
    }
}
