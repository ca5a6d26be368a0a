import FlintCore
import FlintStore
import Hummingbird

/// `accounts:signInWithCustomToken` (v1) and `relyingparty/verifyCustomToken` (v3).
struct SignInWithCustomTokenRequest: Decodable {
    var token: String?
    /// Checked for its type only.
    var returnSecureToken: Bool?
}

/// The session, and whether the sign-in created the account (no `localId`, as Firebase).
typealias SignInWithCustomTokenResponse = SignInReply<CustomTokenSignInFields>

/// `signInWithCustomToken`'s own fields.
struct CustomTokenSignInFields: Encodable, Sendable {
    var kind = "identitytoolkit#VerifyCustomTokenResponse"
    var isNewUser: Bool
}

struct CustomTokenRoutes {
    let flow: CustomTokenSignIn

    func signIn(_ request: Request, context: FlintRequestContext) async throws -> SignInWithCustomTokenResponse {
        let wire = try await context.clientBody(request, as: SignInWithCustomTokenRequest.self)
        return try await flow.signIn(token: wire.token, clientIP: context.clientIP)
    }
}

extension CustomTokenSignIn {
    /// Checks the token (form, signature or dev mode, audience, time, uid, claims, `tenant_id`: the request's tenant,
    /// else `TENANT_ID_MISMATCH`), then signs in its account of that tenant — created when absent — through the
    /// first-factor gate, in one transaction.
    func signIn(token text: String?, clientIP: String? = nil) async throws -> SignInWithCustomTokenResponse {
        let token = try CustomToken(parsing: text)
        try token.checkAudience()
        switch token.signature {
        case .unsigned:
            guard node.settings.devMode else {
                throw AuthError.invalidCustomToken.with(detail: "((Unsigned custom tokens are accepted in dev mode only.))")
            }
        case .rs256(let keyID):
            let key = try await keys.key(for: token, keyID: keyID)
            guard token.verify(with: key) else { throw AuthError.invalidCustomToken.with(detail: "((Invalid signature.))") }
            try token.checkSigned(now: node.clock.now())
        }
        let claims = try token.claims()
        try TenantScope.require(claims.tenant, detail: "((Specified tenant ID does not match the custom token.))")
        let developerClaims = claims.developerClaims.isEmpty ? nil : claims.developerClaims
        let now = node.clock.now()
        let provider = Self.provider
        let outcome = try await node.store.write { [self] tx in
            try await signIn(uid: claims.uid, developerClaims: developerClaims, clientIP: clientIP, in: tx, now: now)
        }
        let (_, isNew, session) = try gate.answer(outcome, provider: provider, developerClaims: developerClaims, now: now)
        return SignInWithCustomTokenResponse(fields: CustomTokenSignInFields(isNewUser: isNew), session: session)
    }

    /// The sign-in's transaction: the account named `uid`, created when absent, through the gate.
    private func signIn(
        uid: String, developerClaims: [String: JSONValue]?, clientIP: String?, in tx: some Writes, now: Instant
    ) async throws -> SignInOutcome {
        var user: UserRecord
        var isNew = false
        if let found = try await tx.lockedUser(tenant: .scoped, localID: uid) {
            guard !found.disabled else { return .failed(.userDisabled) }
            user = found
        } else {
            user = UserRecord(tenant: .scoped, localID: uid, createdAt: now, validSince: now.wholeSecond)
            isNew = true
        }
        let verdict = try await gate.firstFactorGate(tx, localID: isNew ? nil : user.localID, provider: Self.provider)
        if case .refuse(let error) = verdict.decision { return .failed(error) }
        if isNew, !(try await newAccounts.allows(clientIP, in: tx, now: now)) { return .failed(.tooManyAttempts) }
        user.lastLoginAt = now
        if isNew { try await tx.insertUser(user) } else { try await tx.recordSignIn(tenant: .scoped, localID: user.localID, at: now) }
        return try await gate.pass(verdict, tx, user: user, provider: Self.provider, isNew: isNew, developerClaims: developerClaims, now: now)
    }
}
