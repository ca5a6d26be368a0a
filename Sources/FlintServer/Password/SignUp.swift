import FlintCore
import FlintStore
import Hummingbird

/// `accounts:signUp` (v1), `relyingparty/signupNewUser` (v3), and the admin form `projects/{p}/accounts`.
struct SignUpRequest: Decodable {
    var email: String?
    var password: String?
    var displayName: String?
    var idToken: String?
    /// Admin only.
    var localId: String?
    var photoUrl: String?
    var emailVerified: Bool?
    var phoneNumber: String?
    var disabled: Bool?
    /// Admin only: second factors (phone numbers) the new account starts with.
    var mfaInfo: [MFAEnrollmentRequest]
}

/// The new (or upgraded) account and its session; an operator's create answers no session.
typealias SignUpResponse = SignInReply<SignUpFields>

/// `signUp`'s own fields.
struct SignUpFields: Encodable, Sendable {
    var kind = "identitytoolkit#SignupNewUserResponse"
    var localId: String
    var email: String?
    var displayName: String?
}

extension PasswordRoutes {
    func signUp(_ request: Request, context: FlintRequestContext) async throws -> SignUpResponse {
        let wire = try await context.clientBody(request, as: SignUpRequest.self, projectID: flow.node.settings.projectID)
        if context.caller == .admin { return try await flow.adminCreateUser(wire) }
        return try await flow.signUp(wire, clientIP: context.clientIP)
    }
}

extension PasswordFlow {
    /// A user's own sign-up: email and password (a new account, or added to the `idToken` user), or with neither,
    /// an anonymous account when the project allows it.
    func signUp(_ wire: SignUpRequest, clientIP: String? = nil) async throws -> SignUpResponse {
        if wire.localId != nil { throw AuthError(code: "UNEXPECTED_PARAMETER", detail: "User ID") }
        let config = node.config.current
        let anonymous = wire.email == nil && wire.password == nil && wire.idToken == nil
        if anonymous { guard config.anonymousSignInEnabled else { throw AuthError(code: "ADMIN_ONLY_OPERATION") } }
        var givenEmail: String?
        var newHash: String?
        if !anonymous {
            // An empty email is INVALID_EMAIL, as Firebase; only an absent one is MISSING_EMAIL.
            givenEmail = try EmailAddress.wire(wire.email)
            guard let password = wire.password, !password.isEmpty else { throw AuthError.missingPassword }
            guard config.emailSignInEnabled else { throw AuthError.operationNotAllowed }
            newHash = try await passwords.strongHash(password, rules: config.newPasswordRules)
        }
        let (email, hash) = (givenEmail, newHash)
        let token = try wire.idToken.map { idToken throws(AuthError) in try sessions.verifyIDToken(idToken) }
        let now = node.clock.now()
        let newID = node.random.alphanumericID()
        let provider = anonymous ? "anonymous" : "password"
        let outcome = try await node.store.write { [self] tx in
            try await signUp(
                email: email, hash: hash, displayName: wire.displayName, token: token, newID: newID, provider: provider, clientIP: clientIP, in: tx,
                now: now)
        }
        let (user, _, session) = try gate.answer(outcome, provider: provider, linking: token, now: now)
        return SignUpResponse(fields: SignUpFields(localId: user.localID, email: user.email, displayName: user.displayName), session: session)
    }

    /// The sign-up's transaction: a new account (or the ID token's) gets the email and password through the gate.
    private func signUp(
        email: String?, hash: String?, displayName: String?, token: VerifiedIDToken?, newID: String, provider: String, clientIP: String?,
        in tx: some Writes, now: Instant
    ) async throws -> SignInOutcome {
        var user: UserRecord
        let isNew: Bool
        switch try await newAccounts.account(linking: token, sessions: sessions, newID: newID, clientIP: clientIP, in: tx, now: now) {
        case .failure(let error): return .failed(error)
        case .success(let account): (user, isNew) = account
        }
        if token != nil {
            if user.email != email { (user.emailVerified, user.emailLinkSignIn) = (false, false) }
            // Replacing a password, like any credential change, ends the other sessions.
            if user.passwordHash != nil { try await sessions.revokeSessions(of: &user, in: tx, now: now) }
        }
        let before = user
        if let email, let owner = try await tx.user(tenant: .scoped, email: email), owner.localID != user.localID { return .failed(.emailExists) }
        let verdict = try await gate.firstFactorGate(tx, localID: isNew ? nil : user.localID, provider: provider, linking: token)
        if case .refuse(let error) = verdict.decision { return .failed(error) }
        if let email { user.email = email }
        if let hash {
            user.passwordHash = hash
            user.passwordUpdatedAt = now
        }
        if let name = displayName { user.displayName = name }
        verdict.stamp(&user, now: now)
        do {
            if isNew { try await tx.insertUser(user) } else { try await tx.updateUser(user) }
        } catch StoreError.conflict(.email) {
            return .failed(.emailExists)
        }
        if !isNew { try await tx.auditAccountChanges(from: before, to: user, at: now) }
        return try await gate.pass(verdict, tx, user: user, provider: provider, isNew: isNew, linking: token, now: now)
    }

    /// An operator creating a user (firebase-admin `createUser`, with its second factors): no tokens are returned.
    func adminCreateUser(_ wire: SignUpRequest) async throws -> SignUpResponse {
        let factors = try OperatorEnrollments(wire.mfaInfo, random: node.random, newIDs: true)
        if factors.entries.contains(where: \.isTOTP) { throw AuthError.mfaEnrollmentNotFound }
        let email = try wire.email.map { text throws(AuthError) in try EmailAddress.wire(text) }
        let hash = try await passwords.strongHash(wire.password)
        let phone = try wire.phoneNumber.map { text throws(AuthError) in try PhoneNumber(wire: text).e164 }
        if let id = wire.localId, id.isEmpty || id.utf8.count > 128 { throw AuthError.invalidArgument("localId must be 1 to 128 characters") }
        let now = node.clock.now()
        var user = UserRecord(
            tenant: .scoped, localID: wire.localId ?? node.random.alphanumericID(), phoneNumber: phone, createdAt: now, validSince: now.wholeSecond)
        user.email = email
        user.emailVerified = wire.emailVerified ?? false
        user.displayName = wire.displayName
        user.photoURL = wire.photoUrl
        user.disabled = wire.disabled ?? false
        user.passwordHash = hash
        user.passwordUpdatedAt = hash == nil ? nil : now
        let record = user
        do {
            try await node.store.write { tx in
                try await Self.insert(record, factors: factors, in: tx, now: now)
            }
        } catch StoreError.conflict(let taken) {
            throw AuthError(taken)
        }
        return SignUpResponse(fields: SignUpFields(localId: user.localID, email: user.email, displayName: user.displayName))
    }

    /// Inserts an operator's new account with its second factors, audited as `ACCOUNT_CREATED`.
    private static func insert(_ record: UserRecord, factors: OperatorEnrollments, in tx: some Writes, now: Instant) async throws {
        try await tx.insertUser(record)
        try await tx.audit(.accountCreated, uid: record.localID, at: now)
        if case .success(let enrollments) = factors.records(localID: record.localID, existing: [], now: now) {
            try await tx.replaceMFAEnrollments(tenant: .scoped, localID: record.localID, with: enrollments)
        }
    }
}
