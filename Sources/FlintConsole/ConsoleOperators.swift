public import FlintCore
import FlintServer
public import FlintStore

/// Console operators, for `flint admin operators add|reset|remove|role|tenants`: the operator is stored with its role and a
/// one-time setup token (by its hash), valid 24 hours, with which the operator sets a password and enrolls a TOTP
/// authenticator at `/console/setup`. Every change is audited (`CONSOLE_OPERATOR_CHANGED`, actor `cli`) in its
/// transaction; the console always keeps one operator with the `admin` role.
public enum ConsoleOperators {
    /// Why a change of operators was refused.
    public enum Refusal: Error, Sendable, Equatable {
        /// The change would leave the console without an operator with the `admin` role.
        case lastAdmin
    }

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

    /// Removes an operator and ends its sessions; answers how many sessions ended.
    /// - Throws: ``FlintStore/StoreError/notFound`` when no operator has this email; ``Refusal/lastAdmin`` when it is
    ///   the last operator with the `admin` role.
    public static func remove(email: String, in store: any AuthStore, now: Instant) async throws -> Int {
        let address = EmailAddress.normalize(email) ?? email.lowercased()
        return try await store.write { tx in
            guard let record = try await tx.consoleOperator(email: address) else { throw StoreError.notFound }
            if record.role == .admin { try await requireAnotherAdmin(than: address, in: tx) }
            try await tx.deleteConsoleOperator(email: address)
            let ended = try await tx.deleteConsoleSessions(email: address)
            try await tx.appendAuditEvent(
                AuditEvent(
                    at: now, kind: .consoleOperatorChanged, actor: "cli",
                    detail: ["operator": .string(address), "role": .string(record.role.rawValue), "step": "removed"]))
            return ended
        }
    }

    /// Changes an operator's role. Its sessions stay: each request re-reads the operator, so the new role holds from
    /// its next request on. Answers the previous role (nothing is written or audited when it is `role` already).
    /// - Throws: ``FlintStore/StoreError/notFound`` when no operator has this email; ``Refusal/lastAdmin`` when it
    ///   would demote the last operator with the `admin` role.
    public static func setRole(email: String, role: ConsoleRole, in store: any AuthStore, now: Instant) async throws -> ConsoleRole {
        let address = EmailAddress.normalize(email) ?? email.lowercased()
        return try await store.write { tx in
            guard var record = try await tx.consoleOperator(email: address) else { throw StoreError.notFound }
            let previous = record.role
            guard previous != role else { return previous }
            if previous == .admin { try await requireAnotherAdmin(than: address, in: tx) }
            record.role = role
            try await tx.updateConsoleOperator(record)
            try await tx.appendAuditEvent(
                AuditEvent(
                    at: now, kind: .consoleOperatorChanged, actor: "cli",
                    detail: [
                        "operator": .string(address), "role": .string(role.rawValue), "previousRole": .string(previous.rawValue),
                        "step": "roleChanged",
                    ]))
            return previous
        }
    }

    /// Limits an operator to `tenants` (``FlintStore/TenantID/default`` for the project's own users), or lifts its limit
    /// (`nil`). Its sessions stay: each request re-reads the operator, so the limit holds from its next request on.
    /// Audited (`CONSOLE_OPERATOR_CHANGED`, step `tenantsChanged`) with the tenants and whether the project is among
    /// them. Answers the previous limit.
    /// - Throws: ``FlintStore/StoreError/notFound`` when no operator has this email; `TENANT_NOT_FOUND` when a tenant
    ///   named does not exist.
    public static func setTenants(email: String, tenants: [TenantID]?, in store: any AuthStore, now: Instant) async throws -> [TenantID]? {
        let address = EmailAddress.normalize(email) ?? email.lowercased()
        return try await store.write { tx in
            guard var record = try await tx.consoleOperator(email: address) else { throw StoreError.notFound }
            try await TenantLimit.requireExisting(tenants, in: tx)
            let previous = record.tenants
            record.tenants = TenantID.limit(tenants)
            try await tx.updateConsoleOperator(record)
            let detail = TenantLimit.auditDetail(record.tenants).merging(["operator": .string(address), "step": "tenantsChanged"]) { $1 }
            try await tx.appendAuditEvent(AuditEvent(at: now, kind: .consoleOperatorChanged, actor: "cli", detail: detail))
            return previous
        }
    }

    /// Throws ``Refusal/lastAdmin`` unless an operator other than `email` has the `admin` role.
    private static func requireAnotherAdmin(than email: String, in tx: any ConsoleWrites) async throws {
        let admins = try await tx.lockedConsoleOperatorEmails(role: .admin)
        if admins.allSatisfy({ $0 == email }) { throw Refusal.lastAdmin }
    }

    /// The setup page's path for `token`, to put after the server's public URL.
    public static func setupPath(token: String) -> String { "/console/setup?token=" + token }
}
