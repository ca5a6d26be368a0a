public import FlintCore

/// SMS code sessions: started, spent once, abandoned, swept. Queries.
public protocol CodeSessionsReads: Sendable {
    /// Outbox messages of `tenant`'s code sessions that can still accept their code at `now`, oldest first; only
    /// those to `phoneNumber` when one is given.
    func pendingCodeMessages(tenant: TenantID, now: Instant, maxAttempts: Int, phoneNumber: String?) async throws -> [OutboxMessage]
    /// A code session by ID.
    func codeSession(id: String) async throws -> CodeSession?
}

/// SMS code sessions: started, spent once, abandoned, swept. Writes, inside a transaction.
public protocol CodeSessionsWrites: CodeSessionsReads {
    /// The live session for this number and purpose, or stores `candidate` as the new one. A session whose outbox
    /// record is still `sending` (its text was never reported handed over) is not re-used but replaced.
    /// - Returns: the session now live and whether it was already there (re-entrant send).
    func startCodeSession(_ candidate: CodeSession, maxAttempts: Int) async throws -> (session: CodeSession, reused: Bool)
    /// Presents a code hash to a session, atomically (one winner among concurrent right answers).
    func spendCode(sessionID: String, codeHash: String, now: Instant, maxAttempts: Int) async throws -> CodeSpendOutcome
    /// Spends a phone sign-in's code and reads what the sign-in needs next: ``spendCode(sessionID:codeHash:now:maxAttempts:)``
    /// and, when the code is spent, the account holding the session's number with its federated identities, and the
    /// hits of the number's `counters` (in order; 0 for a window without a row). Each engine chooses its round trips
    /// (PostgreSQL: one statement).
    func spendPhoneSignInCode(
        sessionID: String, codeHash: String, now: Instant, maxAttempts: Int, counters: [NumberCounter]
    ) async throws -> SpentCodeRead

    /// Deletes code sessions that expired before `cutoff`; returns how many.
    func deleteCodeSessions(expiredBefore cutoff: Instant) async throws -> Int
    /// Ends a session whose message could not be handed over, so the next send makes a new code.
    func abandonCodeSession(id: String, now: Instant) async throws
}
