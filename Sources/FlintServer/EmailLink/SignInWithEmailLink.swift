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
struct SignInWithEmailLinkResponse: ResponseEncodable {
    var kind = "identitytoolkit#EmailLinkSigninResponse"
    var localId: String
    var email: String
    var idToken: String?
    var refreshToken: String?
    var expiresIn: String?
    var isNewUser: Bool
    var mfaPendingCredential: String?
    var mfaInfo: [MFAInfoJSON]?
    /// Flint extension: see ``SignInWithPasswordResponse/mfaEnrollmentRequired``.
    var mfaEnrollmentRequired: Bool?
}

extension EmailLinkRoutes {
    func signInWithEmailLink(_ request: Request, context: FlintRequestContext) async throws -> SignInWithEmailLinkResponse {
        try context.requireClient()
        let wire = try await request.decode(as: SignInWithEmailLinkRequest.self, context: context)
        return try await services.signInWithEmailLink(wire, clientIP: context.clientIP)
    }
}

extension AuthServices {
    /// Uses the code and signs in: the user owning the email, a new user, or — with an `idToken` — that user, who
    /// gets the email. The email is then verified. An account whose email was unverified and had a password
    /// (possibly set by someone else) loses the password, its phone number and every earlier session.
    func signInWithEmailLink(_ wire: SignInWithEmailLinkRequest, clientIP: String? = nil) async throws -> SignInWithEmailLinkResponse {
        let config = config.current
        guard config.emailSignInEnabled, !config.passwordRequired else { throw AuthError.operationNotAllowed }
        let token = try wire.idToken.map { idToken throws(AuthError) in try verifyIDToken(idToken) }
        let email = try Self.normalizedEmail(wire.email)
        guard let code = wire.oobCode, !code.isEmpty else { throw AuthError.missingOobCode }
        let now = nowMS
        let newID = random.alphanumericID()
        let hash = storedTokenHash(code)
        let outcome = try await store.write { [self] tx -> SignInOutcome in
            // Checked before use: a mistyped email leaves the code usable.
            guard let found = try await tx.oobCode(hash: hash), found.requestType == EmailAction.signIn.rawValue, found.usedAt == nil else {
                return .failed(.invalidOobCode)
            }
            guard now < found.expiresAt else { return .failed(.expiredOobCode) }
            guard found.email == email else { return .failed(.emailMismatch) }
            switch try await Self.use(code, as: .signIn, in: tx, now: now) {
            case .failure(let error): return .failed(error)
            case .success: break
            }
            let owner = try await tx.lockedUser(email: email)
            var user: UserRecord
            var isNew = false
            if let token {
                switch try await tokenUser(token, in: tx) {
                case .failure(let error): return .failed(error)
                case .success(let found): user = found
                }
                if let owner, owner.localID != user.localID { return .failed(.emailExists) }
            } else if let owner {
                user = owner
            } else {
                guard try await mayCreateAccount(from: clientIP, in: tx, now: now) else { return .failed(.tooManyAttempts) }
                user = UserRecord(localID: newID, createdAt: now, validSince: now / 1000)
                isNew = true
            }
            guard !user.disabled else { return .failed(.userDisabled) }
            let gate = try await firstFactorGate(tx, localID: isNew ? nil : user.localID, provider: "password", linking: token)
            if case .refuse(let error) = gate.decision { return .failed(error) }
            if !isNew, !user.emailVerified, user.passwordHash != nil, user.email == email {
                // Whoever set the password never proved the email, so nothing they attached stays: not the
                // password, not a phone number they linked (their own, which would let them back in), not a
                // session.
                user.passwordHash = nil
                user.passwordUpdatedAt = nil
                user.phoneNumber = nil
                try await revokeSessions(of: &user, in: tx, now: now)
            }
            user.email = email
            user.emailVerified = true
            user.emailLinkSignIn = true
            user.lastLoginAt = now
            if isNew { try await tx.insertUser(user) } else { try await tx.updateUser(user) }
            return try await pass(gate, tx, user: user, provider: "password", isNew: isNew, now: now)
        }
        switch outcome {
        case .failed(let error):
            throw error
        case .secondFactorRequired(let user, let enrollments, let isNew):
            let challenge = try mfaChallenge(user: user, provider: "password", enrollments: enrollments, now: now)
            return SignInWithEmailLinkResponse(
                localId: user.localID, email: email, isNewUser: isNew, mfaPendingCredential: challenge.pendingCredential,
                mfaInfo: challenge.hints, mfaEnrollmentRequired: enrollments.isEmpty ? true : nil)
        case .signedIn(let user, let refreshToken, let isNew):
            let tokens = try sessionTokens(user: user, refreshToken: refreshToken, provider: "password", now: now)
            return SignInWithEmailLinkResponse(
                localId: user.localID, email: email, idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn,
                isNewUser: isNew)
        }
    }
}
