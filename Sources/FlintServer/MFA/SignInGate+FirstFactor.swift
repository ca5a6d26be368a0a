import FlintCore
import FlintStore

/// The place every first-factor flow asks "tokens or a second-factor challenge?" (``FirstFactorPolicy``), inside
/// the flow's transaction, and where the session's refresh token is stored when the answer is tokens.
struct FirstFactorGate: Sendable {
    /// The policy's answer.
    var decision: FirstFactorPolicy.Decision
    /// The account's second factors as the project sees them (the challenge's hints).
    var enrollments: [MFAEnrollmentRecord]
}

extension SignInGate {
    /// Asks the policy before the flow writes anything, so a refused sign-in changes nothing but what it spent.
    /// - Parameters:
    ///   - localID: the account, or `nil` for one the flow is about to create (it has no factors).
    ///   - provider: `firebase.sign_in_provider` of the resulting session.
    ///   - linking: the session adding this credential to its account, if any.
    ///   - phoneBecomesFirstFactor: whether the flow makes a phone number a first factor of the account.
    func firstFactorGate(
        _ tx: any SecondFactorsReads, localID: String?, provider: String, linking: VerifiedIDToken? = nil, phoneBecomesFirstFactor: Bool = false
    ) async throws -> FirstFactorGate {
        var enrollments: [MFAEnrollmentRecord] = []
        if let localID { enrollments = try await activeEnrollments(localID, in: tx) }
        let attempt = FirstFactorPolicy.Attempt(
            provider: provider, hasEnrollments: !enrollments.isEmpty, linking: linking != nil, phoneBecomesFirstFactor: phoneBecomesFirstFactor)
        let config = node.config.current
        let decision = FirstFactorPolicy.decide(attempt, state: config.mfaState, firstFactorState: config.mfaState(forFirstFactor: provider))
        return FirstFactorGate(decision: decision, enrollments: enrollments)
    }

    /// Completes a first factor the gate let through, after the flow wrote `user` in `tx`: stores the session's
    /// refresh token (keeping a linking session's sign-in time and second factor, and a custom token's developer
    /// claims), or answers the challenge. Either way a `SIGN_IN` audit event is appended in `tx` (the sign-in's one
    /// extra insert), with `method` (default: `provider`) and whether tokens were issued or a second factor is asked for.
    /// The session's ID token lists the account's federated identities: those the flow read with the account
    /// (`identities`), none for an account the flow created (`isNew`) without giving it one (`newIdentity`), or else
    /// read from `tx`.
    func pass(
        _ gate: FirstFactorGate, _ tx: any AuditWrites & UsersWrites & TokensWrites, user: UserRecord, provider: String, isNew: Bool,
        newIdentity: Bool = false,
        identities known: [FederatedIdentityRecord]? = nil, linking: VerifiedIDToken? = nil, developerClaims: [String: JSONValue]? = nil,
        method: String? = nil, now: Instant
    ) async throws -> SignInOutcome {
        var detail: [String: JSONValue] = ["method": .string(method ?? provider), "newUser": .bool(isNew)]
        if linking != nil { detail["link"] = .bool(true) }
        if case .refuse(let error) = gate.decision { return .failed(error) }
        var user = user
        var developerClaims = developerClaims
        switch try await blockingFunctions(gate, tx, user: user, provider: provider, method: method, isNew: isNew, linking: linking != nil) {
        case .disabled?: return .failed(.userDisabled)
        case .proceed(let updated, let sessionClaims)?:
            user = updated
            if let sessionClaims { developerClaims = (developerClaims ?? [:]).merging(sessionClaims) { $1 } }
        case nil: break
        }
        switch gate.decision {
        case .refuse(let error):
            return .failed(error)
        case .challenge:
            detail["result"] = "SECOND_FACTOR_REQUIRED"
            try await tx.audit(.signIn, uid: user.localID, at: now, detail)
            return .secondFactorRequired(user: user, enrollments: gate.enrollments, isNew: isNew, claims: developerClaims)
        case .tokens:
            let refresh = try await sessions.storeRefreshToken(
                tx, user: user, provider: provider, now: now, secondFactor: linking.flatMap(SecondFactorClaim.init), authTime: linking?.authTime,
                developerClaims: developerClaims)
            detail["result"] = "TOKENS"
            try await tx.audit(.signIn, uid: user.localID, at: now, detail)
            var identities: [FederatedIdentityRecord] = []
            if let known {
                identities = known
            } else if !isNew || newIdentity {
                identities = try await tx.federatedIdentities(tenant: .scoped, localID: user.localID)
            }
            return .signedIn(user: user, refreshToken: refresh, isNew: isNew, identities: identities, claims: developerClaims)
        }
    }
}
