import FlintCore
import FlintStore
import FlintTexts
import Hummingbird

/// `accounts:signInWithEmailLink` (v1) and `relyingparty/emailLinkSignin` (v3).
struct SignInWithEmailLinkRequest: Decodable {
    var email: String?
    var oobCode: String?
    /// A signed-in user's token: the email is linked to that user (or re-proven, for re-authentication).
    var idToken: String?
}

/// The answer: the session's tokens, or — for an account with second factors — `mfaPendingCredential` and the
/// `mfaInfo` hints instead.
typealias SignInWithEmailLinkResponse = SignInReply<EmailLinkSignInFields>

/// `signInWithEmailLink`'s own fields.
struct EmailLinkSignInFields: Encodable, Sendable {
    var kind = "identitytoolkit#EmailLinkSigninResponse"
    var localId: String
    var email: String
    var isNewUser: Bool
}

extension EmailLinkFlow {
    /// Uses the code and signs in: the user owning the email, a new user, or — with an `idToken` — that user, who
    /// gets the email. The email is then verified. An account whose email was unverified and had a password
    /// (possibly set by someone else) loses the password, its phone number and every earlier session.
    func signInWithEmailLink(_ wire: SignInWithEmailLinkRequest, clientIP: String? = nil) async throws -> SignInWithEmailLinkResponse {
        let config = node.config.current
        guard config.emailLinkSignInEnabled else { throw AuthError.operationNotAllowed }
        let token = try wire.idToken.map { idToken throws(AuthError) in try sessions.verifyIDToken(idToken) }
        let email = try EmailAddress.wire(wire.email)
        guard let code = wire.oobCode, !code.isEmpty else { throw AuthError.missingOobCode }
        let now = node.clock.now()
        let newID = node.random.alphanumericID()
        let hash = storedTokenHash(code)
        let outcome = try await node.store.write { [self] tx in
            try await signIn(code: code, hash: hash, email: email, token: token, newID: newID, clientIP: clientIP, in: tx, now: now)
        }
        let (user, isNew, session) = try gate.answer(outcome, provider: "password", now: now)
        return SignInWithEmailLinkResponse(fields: EmailLinkSignInFields(localId: user.localID, email: email, isNewUser: isNew), session: session)
    }

    /// The sign-in's transaction: uses the code, then signs in, creates or links the account through the gate.
    private func signIn(
        code: String, hash: String, email: String, token: VerifiedIDToken?, newID: String, clientIP: String?, in tx: some Writes, now: Instant
    ) async throws -> SignInOutcome {
        // Checked before use: a mistyped email leaves the code usable.
        guard let found = try await tx.oobCode(hash: hash), found.tenant == .scoped, found.requestType == .emailSignIn, found.usedAt == nil else {
            return .failed(.invalidOobCode)
        }
        guard now < found.expiresAt else { return .failed(.expiredOobCode) }
        guard found.email == email else { return .failed(.emailMismatch) }
        switch try await ActionCodes.use(code, as: .signIn, in: tx, now: now) {
        case .failure(let error): return .failed(error)
        case .success: break
        }
        let owner = try await tx.lockedUser(tenant: .scoped, email: email)
        var user: UserRecord
        let isNew: Bool
        switch try await newAccounts.account(linking: token, sessions: sessions, owner: owner, newID: newID, clientIP: clientIP, in: tx, now: now)
        {
        case .failure(let error): return .failed(error)
        case .success(let account): (user, isNew) = account
        }
        // Linking an email that another account owns.
        if token != nil, let owner, owner.localID != user.localID { return .failed(.emailExists) }
        guard !user.disabled else { return .failed(.userDisabled) }
        let before = user
        let verdict = try await gate.firstFactorGate(tx, localID: isNew ? nil : user.localID, provider: "password", linking: token)
        if case .refuse(let error) = verdict.decision { return .failed(error) }
        if token == nil, !isNew, !user.emailVerified, user.email == email {
            // Whoever made the account or attached a way in never proved the email, so nothing they attached
            // stays: not the password, not a phone number they linked (their own, which would let them back
            // in), not a provider identity (an unverified provider email confers nothing), not a session.
            if try await Sessions.ownerProvedEmail(of: &user, cleanup: .everything, in: tx) {
                try await sessions.revokeSessions(of: &user, in: tx, now: now)
            }
        }
        user.email = email
        user.emailVerified = true
        user.emailLinkSignIn = true
        verdict.stamp(&user, now: now)
        if isNew { try await tx.insertUser(user) } else { try await tx.updateUser(user) }
        // An email put on a signed-in account, or a takeover's password removed (no insert otherwise).
        if !isNew { try await tx.auditAccountChanges(from: before, to: user, at: now) }
        return try await gate.pass(verdict, tx, user: user, provider: "password", isNew: isNew, method: "emailLink", now: now)
    }
}
