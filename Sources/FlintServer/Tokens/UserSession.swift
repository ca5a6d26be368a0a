import FlintCore
import FlintStore

/// The tokens of a signed-in session, as every sign-in response carries them.
struct SessionTokens: Sendable, Encodable {
    var idToken: String
    var refreshToken: String
    var expiresIn: String
}

/// `firebase.sign_in_second_factor` and `firebase.second_factor_identifier` of a session.
struct SecondFactorClaim: Sendable, Equatable {
    /// The kind of second factor the session passed.
    var factor: SecondFactorKind
    /// The enrolment ID (for a recovery code: `recovery_code`).
    var identifier: String

    init(factor: SecondFactorKind, identifier: String) {
        self.factor = factor
        self.identifier = identifier
    }

    /// The claim a verified ID token carries, so a session re-issued from it (password or email change) keeps it.
    init?(_ token: VerifiedIDToken) {
        guard let firebase = token.payload["firebase"], let factor = firebase["sign_in_second_factor"]?.stringValue else { return nil }
        self.init(factor: SecondFactorKind(rawValue: factor), identifier: firebase["second_factor_identifier"]?.stringValue ?? "")
    }
}

/// What a sign-in transaction decided. Failures are returned, not thrown, so a code used inside it stays used.
enum SignInOutcome: Sendable {
    case failed(AuthError)
    /// `identities` are the account's federated identities, for the ID token's `firebase.identities`; `claims` the
    /// session's own (a custom token's developer claims, a blocking function's session claims) over the account's.
    case signedIn(user: UserRecord, refreshToken: String, isNew: Bool, identities: [FederatedIdentityRecord] = [], claims: [String: JSONValue]? = nil)
    /// The first factor is proven; the account has second factors to ask for. `claims` are the first factor's session
    /// claims (a SAML sign-in's attributes), sealed into the pending credential for the session the second factor earns.
    case secondFactorRequired(user: UserRecord, enrollments: [MFAEnrollmentRecord], isNew: Bool = false, claims: [String: JSONValue]? = nil)
}

extension Sessions {
    /// Stores a new refresh token for `user` inside `tx` and returns its value. A session that passed a second factor
    /// keeps it in its refresh token, so refreshed ID tokens carry the same claims.
    ///
    /// `authTime` (a whole second) is the sign-in the session stems from: now for a sign-in, the original one when a session
    /// is re-issued (credential change, enrolment), so re-issuing never makes a sign-in look recent.
    func storeRefreshToken(
        _ tx: any TokensWrites, user: UserRecord, provider: String, now: Instant, secondFactor: SecondFactorClaim? = nil,
        authTime: Instant? = nil, developerClaims: [String: JSONValue]? = nil
    ) async throws -> String {
        var (token, record) = newRefreshToken(
            tenant: user.tenant, localID: user.localID, authTime: authTime ?? now.wholeSecond, provider: provider, now: now)
        record.secondFactor = secondFactor?.factor
        record.secondFactorID = secondFactor?.identifier
        record.developerClaims = developerClaims.map { String(decoding: JSONValue.object($0).serialized(), as: UTF8.self) }
        try await tx.insertRefreshToken(record)
        return token
    }

    /// Signs the ID token for a session whose refresh token was committed.
    func sessionTokens(
        user: UserRecord, refreshToken: String, provider: String, now: Instant, secondFactor: SecondFactorClaim? = nil, authTime: Instant? = nil,
        developerClaims: [String: JSONValue]? = nil, identities: [FederatedIdentityRecord] = []
    ) throws -> SessionTokens {
        SessionTokens(
            idToken: try idToken(
                for: user, sessionID: Self.sessionID(ofRefreshToken: refreshToken), provider: provider, authTime: authTime ?? now.wholeSecond,
                secondFactor: secondFactor, developerClaims: developerClaims,
                identities: identities),
            refreshToken: refreshToken,
            expiresIn: String(Self.idTokenLifetime.inSeconds))
    }

    /// The user behind a verified ID token, re-read and locked inside `tx`, with the revocation and disable checks and,
    /// for a token naming its session, whether that session still lives.
    func tokenUser(_ token: VerifiedIDToken, in tx: any UsersWrites & TokensReads) async throws -> Result<UserRecord, AuthError> {
        try await Self.lockedUser(of: token, in: tx)
    }

    /// ``tokenUser(_:in:)`` for flows that hold no ``Sessions``.
    static func lockedUser(of token: VerifiedIDToken, in tx: any UsersWrites & TokensReads) async throws -> Result<UserRecord, AuthError> {
        guard let user = try await tx.lockedUser(tenant: .scoped, localID: token.userID) else { return .failure(.userNotFound) }
        do throws(AuthError) { try Self.check(token: token, against: user) } catch { return .failure(error) }
        if let sessionID = token.sessionID, !(try await tx.sessionExists(tenant: .scoped, localID: user.localID, sessionID: sessionID)) {
            return .failure(.tokenExpired)
        }
        return .success(user)
    }

    /// `CREDENTIAL_TOO_OLD_LOGIN_AGAIN` unless the sign-in behind `token` is at most five minutes old.
    func requireRecentSignIn(_ token: VerifiedIDToken) throws(AuthError) {
        guard node.clock.now() - token.authTime <= Self.recentSignIn else { throw AuthError.credentialTooOld }
    }

    /// For an account with second factors, changing them needs a session that passed one.
    func requireSecondFactorSession(_ token: VerifiedIDToken, enrollments: [MFAEnrollmentRecord]) throws(AuthError) {
        guard enrollments.isEmpty || SecondFactorClaim(token) != nil else {
            throw AuthError.credentialTooOld.with(detail: "Sign in again with a second factor.")
        }
    }

    /// Verifies an ID token's signature and lifetime (no store read), and that it is of the request's tenant
    /// (`TENANT_ID_MISMATCH`: a token never reaches another tenant's account).
    func verifyIDToken(_ idToken: String?) throws(AuthError) -> VerifiedIDToken {
        guard let idToken, !idToken.isEmpty else { throw AuthError.missingIDToken }
        let verified = try TokenVerifier.verify(idToken, ring: keys.current, projectID: projectID, now: node.clock.now())
        try TenantScope.require(verified.tenant)
        return verified
    }
}
