public import FlintCore

/// The web console's own accounts and sessions, and the account search its users page runs. Queries.
public protocol ConsoleReads: Sendable {
    /// The operator with this (lower-cased) email.
    func consoleOperator(email: String) async throws -> ConsoleOperatorRecord?
    /// The operator whose outstanding setup token hashes to `setupTokenHash`.
    func consoleOperator(setupTokenHash: String) async throws -> ConsoleOperatorRecord?
    /// Every operator, by email.
    func consoleOperators() async throws -> [ConsoleOperatorRecord]
    /// The session whose token hashes to `tokenHash`.
    func consoleSession(tokenHash: String) async throws -> ConsoleSessionRecord?
    /// Accounts whose local ID starts with `idPrefix` or whose display name starts with `namePrefix` (case-insensitive
    /// as the engine's `LOWER` is: ASCII only in SQLite), in local-ID order after `after`, at most `limit`. Either
    /// prefix may be `nil` or empty (no condition); with both, either matches. Both are index ranges (migration 13).
    func consoleUsers(tenant: TenantID, idPrefix: String?, namePrefix: String?, after: String?, limit: Int) async throws -> [UserRecord]
    /// One page of the users list in `listing`'s order, filtered: keyset pages on the order's index (migration 20);
    /// row filters read at most `listing.scanLimit` rows a page (``ConsoleUserPage/scanStopped``).
    func consoleUsers(tenant: TenantID, _ listing: ConsoleUserListing) async throws -> ConsoleUserPage
}

/// The web console's own accounts and sessions. Writes, inside a transaction.
public protocol ConsoleWrites: ConsoleReads {
    /// Stores a new operator; ``StoreError/conflict(_:)`` (``StoreConflict/operatorEmail``) when one has that email.
    func insertConsoleOperator(_ record: ConsoleOperatorRecord) async throws
    /// Replaces the stored operator with the same email; ``StoreError/notFound`` when there is none.
    func updateConsoleOperator(_ record: ConsoleOperatorRecord) async throws
    /// The emails of the operators with `role`, by email, their rows locked until the transaction ends (PostgreSQL's
    /// `FOR UPDATE`; SQLite's writes are serial anyway): two transactions that check "another admin remains" wait on
    /// each other instead of each removing one of the last two.
    func lockedConsoleOperatorEmails(role: ConsoleRole) async throws -> [String]
    /// Deletes the operator with this (lower-cased) email, not its sessions; ``StoreError/notFound`` when there is none.
    func deleteConsoleOperator(email: String) async throws
    /// Stores a session.
    func insertConsoleSession(_ record: ConsoleSessionRecord) async throws
    /// Notes a request of the session at `at` (ms).
    func touchConsoleSession(tokenHash: String, at: Instant) async throws
    /// Ends a session.
    func deleteConsoleSession(tokenHash: String) async throws
    /// Ends every session of an operator; returns how many there were.
    func deleteConsoleSessions(email: String) async throws -> Int
    /// Deletes the sessions idle since before `idleBefore` or begun before `createdBefore` (ms); returns how many.
    func deleteConsoleSessions(idleBefore: Instant, createdBefore: Instant) async throws -> Int
}
