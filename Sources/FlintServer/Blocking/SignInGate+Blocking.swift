import FlintCore
import FlintStore

/// The blocking functions' part in a first factor (``BlockingPhase``).
extension SignInGate {
    /// What the functions decided for a sign-in the gate lets through.
    enum BlockingOutcome: Sendable {
        /// Go on with the account as the functions left it (already written) and the session's extra claims.
        case proceed(UserRecord, sessionClaims: [String: JSONValue]?)
        /// A function disabled the account: it is saved so, and the sign-in answers `USER_DISABLED`.
        case disabled
    }

    /// Sign-ins that call no function: anonymous and custom-token sessions (as Identity Platform documents), and
    /// linking a credential to a signed-in account.
    static func callsBlockingFunctions(provider: String, linking: Bool) -> Bool {
        !linking && provider != "anonymous" && provider != "custom"
    }

    /// In a probe, stops the transaction with the events of the functions this sign-in calls (`beforeCreate` for a new
    /// account, `beforeSignIn` when tokens are issued); in the decided run, applies the functions' answer to the
    /// account (written in `tx`) — or consults again when the account is not the one they were told about.
    /// - Returns: `nil` outside the blocking path (no function configured, or none applies).
    func blockingFunctions(
        _ gate: FirstFactorGate, _ tx: any UsersWrites, user: UserRecord, provider: String, method: String?, isNew: Bool, linking: Bool
    ) async throws -> BlockingOutcome? {
        guard BlockingPhase.current != nil, Self.callsBlockingFunctions(provider: provider, linking: linking) else { return nil }
        let issuesTokens = if case .tokens = gate.decision { true } else { false }
        return try await consultBlockingFunctions(
            tx, user: user, enrollments: gate.enrollments, method: method ?? provider, isNew: isNew, issuesTokens: issuesTokens)
    }

    /// After a second factor, before the session's tokens: `beforeSignIn`, as ``blockingFunctions(_:_:user:provider:method:isNew:linking:)``.
    func blockingFunctionsAfterSecondFactor(
        _ tx: any UsersWrites & SecondFactorsReads, user: UserRecord, provider: String
    ) async throws -> BlockingOutcome? {
        guard BlockingPhase.current != nil, Self.callsBlockingFunctions(provider: provider, linking: false) else { return nil }
        let enrollments = try await tx.mfaEnrollments(tenant: .scoped, localID: user.localID)
        return try await consultBlockingFunctions(tx, user: user, enrollments: enrollments, method: provider, isNew: false, issuesTokens: true)
    }

    private func consultBlockingFunctions(
        _ tx: any UsersWrites, user: UserRecord, enrollments: [MFAEnrollmentRecord], method: String, isNew: Bool, issuesTokens: Bool
    ) async throws -> BlockingOutcome? {
        guard let phase = BlockingPhase.current else { return nil }
        let configured = node.config.current.blockingFunctionURIs
        let create = isNew && configured[.beforeCreate] != nil
        let signIn = issuesTokens && configured[.beforeSignIn] != nil
        guard create || signIn else { return nil }
        if case .decided(let decision) = phase, decision.localID == user.localID, decision.isNew == isNew {
            var updated = user
            decision.verdict.apply(to: &updated)
            if updated != user { try await tx.updateUser(updated) }
            if updated.disabled { return .disabled }
            return .proceed(updated, sessionClaims: signIn ? decision.verdict.sessionClaims : nil)
        }
        let identities = try await tx.federatedIdentities(tenant: .scoped, localID: user.localID)
        let event = BlockingEvent(trigger: .beforeCreate, user: user, identities: identities, enrollments: enrollments, signInMethod: method)
        var consult = BlockingConsult(localID: user.localID, isNew: isNew)
        if create { consult.create = event }
        if signIn {
            var signInEvent = event
            signInEvent.trigger = .beforeSignIn
            consult.signIn = signInEvent
        }
        throw consult
    }
}
