/// Everything Flint persists, behind one protocol. Implementations: SQLite (embedded, default) and, later,
/// PostgreSQL; both run the same migrations and the same statements.
///
/// Writes go through ``write(_:)``: the closure runs inside a transaction and its result is returned only after
/// the transaction is durable. Keep closures short (no signing, no network): they hold the writer.
public protocol AuthStore: Sendable {
    /// Runs `body` in a durable transaction. If `body` throws, none of its writes happen.
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T

    /// Runs read-only `body` against a consistent snapshot (never writes).
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T

    /// Closes connections; the store is unusable afterwards.
    func close() async throws
}

/// Queries every flow may run.
public protocol StoreReader: Sendable {
    /// The stored master secret, if created.
    func masterSecret() async throws -> [UInt8]?
    /// Every signing key, including retired ones.
    func signingKeys() async throws -> [SigningKeyRecord]
    /// The stored project config document (JSON text), if any.
    func projectConfig() async throws -> String?
    /// A value stored beside the project config (such as the digest of the last applied config file), if any.
    func configMetadata(_ name: String) async throws -> String?
    /// A user by ID.
    func user(localID: String) async throws -> UserRecord?
    /// A user by E.164 number.
    func user(phoneNumber: String) async throws -> UserRecord?
    /// A user by lower-cased email.
    func user(email: String) async throws -> UserRecord?
    /// An oob code by the SHA-256 (hex) of its value.
    func oobCode(hash: String) async throws -> OobCodeRecord?
    /// Email outbox records whose oob code is unused and unexpired at `now` (ms), oldest first (the emulator's
    /// `oobCodes` listing).
    func pendingOobMessages(now: Int64) async throws -> [OutboxMessage]
    /// The second factors of an account, oldest first.
    func mfaEnrollments(localID: String) async throws -> [MFAEnrollmentRecord]
    /// How many unused recovery codes an account has.
    func recoveryCodesLeft(localID: String) async throws -> Int
    /// The hits counted so far for `key` in the window starting at `windowStart` (ms); 0 when none.
    func counterValue(key: String, windowStart: Int64) async throws -> Int64
    /// Outbox records waiting for delivery at `now` (ms): queued, or claimed by a node whose lease ran out.
    func dueOutbox(now: Int64, limit: Int) async throws -> [Int64]
    /// A refresh token by the hash of its value.
    func refreshToken(hash: String) async throws -> RefreshTokenRecord?
    /// The outbox, oldest first.
    func outbox(limit: Int) async throws -> [OutboxMessage]
    /// Outbox messages whose code session can still accept its code at `now` (ms), oldest first; only those to
    /// `phoneNumber` when one is given.
    func pendingCodeMessages(now: Int64, maxAttempts: Int, phoneNumber: String?) async throws -> [OutboxMessage]
    /// A code session by ID.
    func codeSession(id: String) async throws -> CodeSession?
    /// Number of users.
    func userCount() async throws -> Int
    /// The schema version the database is at.
    func schemaVersion() async throws -> Int
}

/// Writes, available inside ``AuthStore/write(_:)``.
public protocol StoreTransaction: StoreReader {
    /// Stores the master secret unless one exists; returns the one that is stored.
    func ensureMasterSecret(_ candidate: [UInt8]) async throws -> [UInt8]
    /// Adds a signing key and retires every other active key at `retireAt` (ms).
    func addSigningKey(_ key: SigningKeyRecord, retiringOthersAt retireAt: Int64?) async throws
    /// Replaces the project config document.
    func saveProjectConfig(_ json: String) async throws
    /// Sets a value stored beside the project config.
    func saveConfigMetadata(_ name: String, value: String) async throws

    /// The live session for this number and purpose, or stores `candidate` as the new one. A session whose outbox
    /// record is still `sending` (its text was never reported handed over) is not re-used but replaced.
    /// - Returns: the session now live and whether it was already there (re-entrant send).
    func startCodeSession(_ candidate: CodeSession, maxAttempts: Int) async throws -> (session: CodeSession, reused: Bool)
    /// Presents a code hash to a session, atomically (one winner among concurrent right answers).
    func spendCode(sessionID: String, codeHash: String, now: Int64, maxAttempts: Int) async throws -> CodeSpendOutcome

    /// Deletes code sessions that expired before `cutoff` (ms); returns how many.
    func deleteCodeSessions(expiredBefore cutoff: Int64) async throws -> Int
    /// Ends a session whose message could not be handed over, so the next send makes a new code.
    func abandonCodeSession(id: String, now: Int64) async throws

    /// A user by ID, locked against concurrent writers until the transaction ends (PostgreSQL `FOR UPDATE`; SQLite
    /// has a single writer). Read-modify-write of a user goes through this, so no update is lost.
    func lockedUser(localID: String) async throws -> UserRecord?
    /// A user by lower-cased email, locked the same way.
    func lockedUser(email: String) async throws -> UserRecord?
    /// A user by E.164 number, locked the same way.
    func lockedUser(phoneNumber: String) async throws -> UserRecord?
    /// Inserts a new user. Throws ``StoreError/conflict`` if the ID, number or email is taken.
    func insertUser(_ user: UserRecord) async throws
    /// Rewrites a user row. Throws ``StoreError/conflict`` on a unique clash, ``StoreError/notFound`` if gone.
    func updateUser(_ user: UserRecord) async throws
    /// Records a sign-in (`lastLoginAt`, ms) without rewriting the rest of the row.
    func recordSignIn(localID: String, at: Int64) async throws
    /// Deletes a user and its refresh tokens. Returns whether it existed.
    func deleteUser(localID: String) async throws -> Bool
    /// Deletes every user and refresh token.
    func deleteAllUsers() async throws

    /// Stores a refresh token.
    func insertRefreshToken(_ token: RefreshTokenRecord) async throws
    /// Deletes the user's refresh tokens — all of them, or those created before `cutoff` (seconds) — and returns how
    /// many went. Revocation goes through this, so a revoked session ends in the store, not by clock comparison.
    func deleteRefreshTokens(localID: String, createdBefore cutoff: Int64?) async throws -> Int
    /// Records a refresh (`lastRefreshAt`, ms).
    func touchRefresh(localID: String, at: Int64) async throws

    /// Adds one hit to the counter `key` for the window starting at `windowStart` (ms) and returns the window's
    /// total, counted exactly across every node sharing the store (one atomic upsert). The row may be swept after
    /// `expiresAt` (ms). Abuse limits are built on this.
    func incrementCounter(key: String, windowStart: Int64, expiresAt: Int64) async throws -> Int64
    /// Takes back one hit counted with ``incrementCounter(key:windowStart:expiresAt:)`` (never below zero): limits
    /// that count failures reserve a hit before checking and release it on success, so checks cannot race.
    func releaseCounter(key: String, windowStart: Int64) async throws
    /// Deletes counter windows that expired before `cutoff` (ms); returns how many.
    func deleteCounters(expiredBefore cutoff: Int64) async throws -> Int

    /// Appends a message to the outbox and returns its sequence number.
    @discardableResult
    func appendOutbox(_ message: OutboxMessage) async throws -> Int64
    /// Claims a queued (or abandoned) record for delivery until `leaseUntil` (ms) and counts the attempt; `nil` when
    /// another node holds it or it is done.
    func claimOutbox(sequence: Int64, now: Int64, leaseUntil: Int64) async throws -> OutboxMessage?
    /// Records a delivery outcome (`sent`, `failed`, or `queued` to retry later). `redact` drops the body, link and
    /// code once they are no longer needed.
    func finishOutbox(sequence: Int64, status: String, detail: String?, redact: Bool) async throws
    /// Deletes outbox records created before `cutoff` (ms) that are done with: `sent` or `failed`, or a text whose
    /// hand-over never reported back (`sending`, no lease). Dev-outbox records and email awaiting delivery stay.
    /// - Returns: how many were deleted.
    func deleteOutbox(finishedBefore cutoff: Int64) async throws -> Int

    /// Adds a second factor. Throws ``StoreError/conflict`` if the account has this phone number enrolled already.
    func insertMFAEnrollment(_ enrollment: MFAEnrollmentRecord) async throws
    /// Removes a second factor; returns whether it existed.
    func deleteMFAEnrollment(localID: String, enrollmentID: String) async throws -> Bool
    /// Accepts TOTP time step `step` for an enrolment if no later or equal step was accepted before (atomic: one
    /// winner among concurrent uses of one code).
    func acceptTOTPStep(enrollmentID: String, step: Int64) async throws -> Bool
    /// Replaces an account's recovery codes with new ones (stored hashed).
    func replaceRecoveryCodes(localID: String, hashes: [String], now: Int64) async throws
    /// Uses a recovery code atomically; returns whether it was there and unused.
    func useRecoveryCode(localID: String, hash: String, now: Int64) async throws -> Bool

    /// Stores a new oob code.
    func insertOobCode(_ code: OobCodeRecord) async throws
    /// Uses an oob code of `requestType` atomically: exactly one of concurrent callers gets ``OobCodeUse/used(_:)``.
    func useOobCode(hash: String, requestType: String, now: Int64) async throws -> OobCodeUse
    /// Deletes oob codes that expired before `cutoff` (ms); returns how many.
    func deleteOobCodes(expiredBefore cutoff: Int64) async throws -> Int
}

/// Failures the store reports in its own terms (not SQL).
public enum StoreError: Error, Sendable, Equatable {
    /// A uniqueness rule would break (number, email or ID taken).
    case conflict(String)
    /// The row to change does not exist.
    case notFound
    /// The store has been closed.
    case closed
    /// The stored schema is newer than this build understands.
    case schemaTooNew(found: Int, supported: Int)
    /// Test mode (``SQLiteStore/init(path:readers:replayingWrites:logger:)``): a write closure succeeded once and
    /// failed the other time on the same state, so a replayed transaction would not mean what it meant.
    case notReplayable
}
