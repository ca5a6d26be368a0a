import FlintCore

/// SMS code sessions, for every SQL-backed store: one live session per number and purpose, a code spent by one
/// conditional statement, and the texts of live sessions (outbox rows, hence the outbox's statements).
extension CodeSessionsWrites where Self: SQLBacked & OutboxWrites {
    static var sessionColumns: String { "tenant_id, id, phone_number, purpose, code_hash, created_at, expires_at, attempts, consumed_at" }

    /// A session from `row`, whose session columns are named with `prefix` (beside an account's, which share some names).
    func session(from row: SQLRow, prefix: String = "") throws -> CodeSession {
        CodeSession(
            tenant: TenantID(rawValue: try row.string(prefix + "tenant_id")), id: try row.string(prefix + "id"),
            phoneNumber: try row.string(prefix + "phone_number"),
            purpose: CodePurpose(rawValue: try row.string(prefix + "purpose")), codeHash: try row.string(prefix + "code_hash"),
            createdAt: try row.instant(prefix + "created_at"), expiresAt: try row.instant(prefix + "expires_at"),
            attempts: Int(try row.int64(prefix + "attempts")), consumedAt: try row.optionalInstant(prefix + "consumed_at")
        )
    }

    func codeSession(id: String) async throws -> CodeSession? {
        try await db.first(.read("SELECT \(Self.sessionColumns) FROM code_sessions WHERE id = ?", [.text(id)], from: .codeSessions)).map {
            try session(from: $0)
        }
    }

    func startCodeSession(_ candidate: CodeSession, maxAttempts: Int) async throws -> (session: CodeSession, reused: Bool) {
        // One live session per tenant, purpose and number; the default tenant's keys are those from before tenants.
        let tenantPrefix = candidate.tenant.isDefault ? "" : "t:\(candidate.tenant.rawValue):"
        let liveKey = "\(tenantPrefix)\(candidate.purpose.rawValue):\(candidate.phoneNumber)"
        // A session whose text is still `sending` was never reported handed over (the hand-over failed and its
        // abandonment was not written, or the node died): it is replaced, or the number would get no code until it expires.
        let pendingText = "SELECT COUNT(*) FROM outbox o WHERE o.session_id = code_sessions.id AND o.status = 'sending'"
        if let row = try await db.first(
            .read(
                "SELECT \(Self.sessionColumns), (\(pendingText)) AS unsent FROM code_sessions WHERE live_key = ?", [.text(liveKey)],
                from: .codeSessions, .outbox))
        {
            let existing = try session(from: row)
            if existing.isLive(now: candidate.createdAt, maxAttempts: maxAttempts), try row.int64("unsent") == 0 { return (existing, true) }
            try await db.run(.write("UPDATE code_sessions SET live_key = NULL WHERE id = ?", [.text(existing.id)], into: .codeSessions))
        }
        // Nothing is read back: on PostgreSQL the insert rides on the send's next statement (its counters).
        try await db.deferred(
            .write(
                """
                INSERT INTO code_sessions (tenant_id, id, live_key, phone_number, purpose, code_hash, created_at, expires_at, attempts)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)
                """,
                [
                    .text(candidate.tenant.rawValue), .text(candidate.id), .text(liveKey), .text(candidate.phoneNumber),
                    .text(candidate.purpose.rawValue), .text(candidate.codeHash),
                    .instant(candidate.createdAt), .instant(candidate.expiresAt),
                ], into: .codeSessions)
        )
        return (candidate, false)
    }

    func spendCode(sessionID: String, codeHash: String, now: Instant, maxAttempts: Int) async throws -> CodeSpendOutcome {
        let spent = try await db.first(
            .write(
                Self.spendStatement + " RETURNING \(Self.sessionColumns)", Self.spendValues(sessionID, codeHash, now, maxAttempts),
                into: .codeSessions))
        if let spent { return .spent(try session(from: spent)) }
        return try await refusedSpend(sessionID: sessionID, now: now, maxAttempts: maxAttempts)
    }

    /// The one winning statement of a spend: consumes the session if the code is right and the session live.
    static var spendStatement: String {
        """
        UPDATE code_sessions SET consumed_at = ?, live_key = NULL
        WHERE id = ? AND consumed_at IS NULL AND expires_at > ? AND attempts < ? AND code_hash = ?
        """
    }

    /// The values of ``spendStatement``'s placeholders.
    static func spendValues(_ sessionID: String, _ codeHash: String, _ now: Instant, _ maxAttempts: Int) -> [SQLValue] {
        [.instant(now), .text(sessionID), .instant(now), .integer(Int64(maxAttempts)), .text(codeHash)]
    }

    /// Why a code was not spent: no such session, expired, locked, or a wrong code (counted).
    func refusedSpend(sessionID: String, now: Instant, maxAttempts: Int) async throws -> CodeSpendOutcome {
        guard let current = try await codeSession(id: sessionID), current.consumedAt == nil else { return .notFound }
        if now >= current.expiresAt { return .expired }
        if current.attempts >= maxAttempts { return .locked }
        let counted = try await db.first(
            .write(
                "UPDATE code_sessions SET attempts = attempts + 1 WHERE id = ? AND consumed_at IS NULL RETURNING attempts", [.text(sessionID)],
                into: .codeSessions)
        )
        guard let attempts = try counted?.int64("attempts") else { return .notFound }
        return .wrongCode(attemptsLeft: max(0, maxAttempts - Int(attempts)), phoneNumber: current.phoneNumber)
    }

    func deleteCodeSessions(expiredBefore cutoff: Instant) async throws -> Int {
        try await db.query(.write("DELETE FROM code_sessions WHERE expires_at < ? RETURNING id", [.instant(cutoff)], into: .codeSessions)).count
    }

    func abandonCodeSession(id: String, now: Instant) async throws {
        try await db.run(
            .write("UPDATE code_sessions SET consumed_at = ?, live_key = NULL WHERE id = ?", [.instant(now), .text(id)], into: .codeSessions))
    }

    func pendingCodeMessages(tenant: TenantID, now: Instant, maxAttempts: Int, phoneNumber: String?) async throws -> [OutboxMessage] {
        var binds: [SQLValue] = [.text(tenant.rawValue), .instant(now), .integer(Int64(maxAttempts))]
        if let phoneNumber { binds.append(.text(phoneNumber)) }
        return try await db.query(
            .read(CodeSessionRows.pending(columns: Self.outboxColumns, byNumber: phoneNumber != nil), binds, from: .codeSessions, .outbox)
        ).map(outboxMessage(from:))
    }
}

/// Statements on code sessions that tests look at too.
enum CodeSessionRows {
    /// The texts of a tenant's live code sessions (`columns` of their outbox rows), oldest first; with `byNumber`, only
    /// one number's. The tenant leads so that a number's codes are one probe of `(tenant_id, phone_number)`: without
    /// it the dev listing scanned every code session ever sent (the benchmark's real-number sign-ins fell to 0.4×).
    static func pending(columns: String, byNumber: Bool) -> String {
        """
        SELECT \(columns)
        FROM code_sessions s JOIN outbox o ON o.session_id = s.id
        WHERE s.tenant_id = ? AND s.consumed_at IS NULL AND s.expires_at > ? AND s.attempts < ?\(byNumber ? " AND s.phone_number = ?" : "")
        ORDER BY o.seq
        """
    }
}

/// A phone sign-in's spend, for every SQL-backed store: the code spent and the account holding its number read with
/// its identities (hence the accounts' statements).
extension CodeSessionsWrites where Self: SQLBacked & OutboxWrites & UsersWrites {
    func spendPhoneSignInCode(
        sessionID: String, codeHash: String, now: Instant, maxAttempts: Int, counters: [NumberCounter]
    ) async throws -> SpentCodeRead {
        guard db.dialect == .postgresql else {
            // In process, two statements cost no round trip.
            let outcome = try await spendCode(sessionID: sessionID, codeHash: codeHash, now: now, maxAttempts: maxAttempts)
            guard case .spent(let session) = outcome else { return SpentCodeRead(outcome: outcome) }
            let read = try await userWithIdentities(
                tenant: session.tenant, phoneNumber: session.phoneNumber,
                counters: counters.map { ($0.key(for: session.phoneNumber), $0.windowStart) })
            return SpentCodeRead(outcome: outcome, owner: read.found, hits: read.hits)
        }
        // Over the network, one statement: the spend as a data-modifying `WITH`, its returned session joined with the
        // account holding its number: one row per identity, or one with empty account columns; no row when the code
        // was not spent. The counters' keys are ``NumberCounter/key(for:)`` written in SQL, as the number is known
        // only inside the statement.
        let sessionColumns = Self.sessionColumns.split(separator: ", ").map { "spent.\($0) AS cs_\($0)" }.joined(separator: ", ")
        let hitColumns = counters.indices.map {
            ", (SELECT hits FROM rate_counters WHERE counter_key = ? || spent.phone_number AND window_start = ?) AS hits_\($0)"
        }
        let rows = try await db.query(
            SQLStatement(
                with: ["spent AS (\(Self.spendStatement) RETURNING \(Self.sessionColumns))"],
                IdentityRows.accountColumns + ", " + sessionColumns + hitColumns.joined() + """
                     FROM spent LEFT JOIN users u ON u.tenant_id = spent.tenant_id AND u.phone_number = spent.phone_number
                        LEFT JOIN federated_identities f ON f.tenant_id = u.tenant_id AND f.local_id = u.local_id
                    """,
                Self.spendValues(sessionID, codeHash, now, maxAttempts)
                    + counters.flatMap { [SQLValue.text($0.prefix), .instant($0.windowStart)] },
                tables: [.users, .federatedIdentities, .rateCounters], effect: .write(.codeSessions)))
        guard let first = rows.first else {
            return SpentCodeRead(outcome: try await refusedSpend(sessionID: sessionID, now: now, maxAttempts: maxAttempts))
        }
        let read = try accountAndHits(rows, counters: counters.count)
        return SpentCodeRead(outcome: .spent(try session(from: first, prefix: "cs_")), owner: read.found, hits: read.hits)
    }
}
