public import FlintCore
public import FlintStore

/// Adding console operators, for `flint admin operators add`: the operator is stored with its role and a one-time
/// setup token (by its hash), valid 24 hours, with which the operator sets a password and enrolls a TOTP
/// authenticator at `/console/setup`.
public enum ConsoleOperators {
    /// Adds an operator and answers the setup link's token (shown once; only its hash is stored).
    /// - Throws: ``FlintCore/AuthError`` `INVALID_EMAIL`; ``FlintStore/StoreError/conflict(_:)`` when the email has an operator.
    public static func add(email: String, role: ConsoleRole, in store: any AuthStore, now: Instant, random: any RandomSource) async throws -> String {
        guard let address = EmailAddress.normalize(email) else { throw AuthError.invalidEmail }
        let token = Base64URL.encode(random.bytes(32))
        let record = ConsoleOperatorRecord(
            email: address, role: role, setupTokenHash: ConsoleFlow.hash(token),
            setupExpiresAt: now + ConsoleFlow.setupValidity, createdAt: now)
        let event = AuditEvent(
            at: now, kind: .consoleOperatorChanged, actor: "cli",
            detail: ["operator": .string(address), "role": .string(role.rawValue), "step": "added"])
        try await store.write { tx in
            try await tx.insertConsoleOperator(record)
            try await tx.appendAuditEvent(event)
        }
        return token
    }

    /// Starts an operator's setup again (a lost authenticator or password): clears its password and TOTP secret, ends
    /// its sessions and answers a new setup link's token, valid 24 hours.
    /// - Throws: ``FlintStore/StoreError/notFound`` when no operator has this email.
    public static func reset(email: String, in store: any AuthStore, now: Instant, random: any RandomSource) async throws -> String {
        let address = EmailAddress.normalize(email) ?? email.lowercased()
        let token = Base64URL.encode(random.bytes(32))
        let event = AuditEvent(at: now, kind: .consoleOperatorChanged, actor: "cli", detail: ["operator": .string(address), "step": "reset"])
        try await store.write { tx in
            guard var record = try await tx.consoleOperator(email: address) else { throw StoreError.notFound }
            (record.passwordHash, record.totpSecret, record.lastTOTPStep) = (nil, nil, nil)
            (record.setupTokenHash, record.setupExpiresAt) = (ConsoleFlow.hash(token), now + ConsoleFlow.setupValidity)
            try await tx.updateConsoleOperator(record)
            _ = try await tx.deleteConsoleSessions(email: address)
            try await tx.appendAuditEvent(event)
        }
        return token
    }

    /// The setup page's path for `token`, to put after the server's public URL.
    public static func setupPath(token: String) -> String { "/console/setup?token=" + token }
}
