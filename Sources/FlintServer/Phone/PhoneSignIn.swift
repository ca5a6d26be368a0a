import FlintCore
import FlintStore
import FlintTexts

/// The rules of `signInWithPhoneNumber`: prove the number (code, fictional code or temporary proof), then sign
/// up, sign in, re-authenticate, or put the number on the signed-in user, in one transaction.
struct PhoneSignIn: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
    /// The session key seals temporary proofs.
    let secret: ServerSecret
    let codes: PhoneCodes
    let sessions: Sessions
    let gate: SignInGate
    let newAccounts: AccountCreationLimit

    /// The store aggregates its transaction touches: the code's session and the number's counters, accounts (with
    /// their sign-in stamps and second factors), refresh tokens, the audit log.
    typealias Writes = CodeSessionsWrites & CountersWrites & UsersWrites & UserListingWrites & SecondFactorsReads & TokensWrites & AuditWrites
}

extension PhoneSignIn {
    /// How long a `temporaryProof` stays usable.
    static let temporaryProofLifetime: Duration = .seconds(3600)

    func signInWithPhoneNumber(_ wire: SignInWithPhoneNumberRequest, clientIP: String? = nil) async throws -> SignInWithPhoneNumberResponse {
        guard node.config.current.phoneSignInEnabled else { throw AuthError.operationNotAllowed }
        let proof = try verifiedNumberProof(wire)
        // REAUTH proves the number only; an idToken sent with it never moves the number onto that user.
        let linking = wire.operation == .link || wire.operation == .update || (wire.operation == .signUpOrIn && wire.idToken != nil)
        let tokenUser: VerifiedIDToken?
        if linking {
            guard let idToken = wire.idToken, !idToken.isEmpty else { throw AuthError.missingIDToken }
            tokenUser = try sessions.verifyIDToken(idToken)
        } else {
            tokenUser = nil
        }
        let now = node.clock.now()
        let newID = node.random.alphanumericID()
        let operation = wire.operation
        let usesProof = wire.temporaryProof != nil
        let outcome = try await node.store.write { [self] tx in
            try await signIn(
                proof, tokenUser: tokenUser, operation: operation, usesProof: usesProof, newID: newID, clientIP: clientIP, in: tx, now: now)
        }
        switch outcome {
        case .failed(let error):
            throw error
        case .numberTaken(let phone):
            let proof = SessionHandle.temporaryProof(phoneNumber: phone, issuedAt: node.clock.now().wholeSecond).encode(key: secret.sessionKey)
            return SignInWithPhoneNumberResponse(
                fields: PhoneSignInFields(
                    phoneNumber: phone, temporaryProof: proof, temporaryProofExpiresIn: String(Self.temporaryProofLifetime.inSeconds)))
        case .completed(let completed):
            let (user, isNew, session) = try gate.answer(completed, provider: "phone", now: now)
            return SignInWithPhoneNumberResponse(
                fields: PhoneSignInFields(localId: user.localID, isNewUser: isNew, phoneNumber: user.phoneNumber ?? ""), session: session)
        }
    }

    /// The sign-in's transaction: spends the proof, then signs in the number's account, puts the number on the ID
    /// token's account, or creates an account, through the gate.
    private func signIn(
        _ proof: NumberProof, tokenUser: VerifiedIDToken?, operation: SignInWithPhoneNumberRequest.Operation, usesProof: Bool,
        newID: String, clientIP: String?, in tx: some Writes, now: Instant
    ) async throws -> PhoneOutcome {
        let proven: ProvenNumber
        // A code sent for a second factor never signs anyone in.
        // The spend reads the number's account without a lock, with the identities its ID token lists, beside the
        // number's counters: a sign-in only stamps its account and adds a session (targeted writes, no row
        // rewritten from what was read), so on PostgreSQL a returning account's sign-in is that read and one
        // statement of writes (PostgresTransaction). Linking rewrites both accounts' rows, so it locks them.
        switch try await codes.spend(proof, purpose: .signIn, in: tx, now: now) {
        case .success(let number): proven = number
        case .failure(let error): return .failed(error)
        }
        let phone = proven.phone
        let found = proven.owner
        let owner = try await tokenUser == nil ? found?.user : tx.lockedUser(tenant: .scoped, phoneNumber: phone)
        if let tokenUser {
            var user: UserRecord
            switch try await Sessions.lockedUser(of: tokenUser, in: tx) {
            case .success(let found): user = found
            case .failure(let error): return .failed(error)
            }
            if let owner, owner.localID != user.localID {
                if usesProof { return .failed(.phoneNumberExists) }
                return .numberTaken(phone)
            }
            // The linked number's session is a phone sign-in (as Firebase issues it), so in a MANDATORY project
            // an account without factors is refused like a phone sign-in.
            let verdict = try await gate.firstFactorGate(
                tx, localID: user.localID, provider: "phone", linking: tokenUser, phoneBecomesFirstFactor: true)
            if case .refuse(let error) = verdict.decision { return .failed(error) }
            user.phoneNumber = phone
            verdict.stamp(&user, now: now)
            try await tx.updateUser(user)
            return .completed(try await gate.pass(verdict, tx, user: user, provider: "phone", isNew: false, now: now))
        }
        if var user = owner {
            guard !user.disabled else { return .failed(.userDisabled) }
            let verdict = try await gate.firstFactorGate(tx, localID: user.localID, provider: "phone", phoneBecomesFirstFactor: true)
            if case .refuse(let error) = verdict.decision { return .failed(error) }
            try await verdict.recordSignIn(&user, in: tx, now: now)
            return .completed(
                try await gate.pass(verdict, tx, user: user, provider: "phone", isNew: false, identities: found?.identities, now: now))
        }
        if operation == .reauth { return .failed(.userNotFound) }
        let verdict = try await gate.firstFactorGate(tx, localID: nil, provider: "phone", phoneBecomesFirstFactor: true)
        if case .refuse(let error) = verdict.decision { return .failed(error) }
        guard try await newAccounts.allows(clientIP, in: tx, now: now) else { return .failed(.tooManyAttempts) }
        var user = UserRecord(tenant: .scoped, localID: newID, phoneNumber: phone, createdAt: now, validSince: now.wholeSecond)
        verdict.stamp(&user, now: now)
        // The spend's read found the number free; on PostgreSQL the account rides with the session's writes.
        try await tx.insertFreshUser(user)
        return .completed(try await gate.pass(verdict, tx, user: user, provider: "phone", isNew: true, now: now))
    }

    /// Checks what can be checked before touching the store: the handle's MAC, a fictional code, a proof.
    private func verifiedNumberProof(_ wire: SignInWithPhoneNumberRequest) throws(AuthError) -> NumberProof {
        let now = node.clock.now().wholeSecond
        if let proofText = wire.temporaryProof {
            guard let phoneText = wire.phoneNumber, !phoneText.isEmpty else { throw AuthError.missingPhoneNumber }
            let phone = try PhoneNumber(wire: phoneText)
            guard case .temporaryProof(let proven, let issuedAt)? = SessionHandle(decoding: proofText, key: secret.sessionKey),
                proven == phone.e164, now - issuedAt < Self.temporaryProofLifetime
            else { throw AuthError.invalidTemporaryProof }
            return .verified(phone.e164)
        }
        return try codes.codeProof(sessionInfo: wire.sessionInfo, code: wire.code)
    }
}

/// How the caller proves the number.
enum NumberProof {
    /// Already proven (a valid temporary proof).
    case verified(String)
    /// A stored session to spend with this code hash.
    case storedSession(id: String, codeHash: String)
    /// A fictional number's handle and code, counted like a stored session's (``PhoneCodes/spend(_:purpose:in:now:)``).
    case fictional(FictionalAttempt)
}

/// What the sign-in transaction decided. Failures are returned, not thrown, so a spent code stays spent.
enum PhoneOutcome: Sendable {
    case failed(AuthError)
    /// Linking a number another account has: the answer carries a temporary proof.
    case numberTaken(String)
    /// The first factor went through the gate: tokens, a challenge, or a refusal.
    case completed(SignInOutcome)
}
