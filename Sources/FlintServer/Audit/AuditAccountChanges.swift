import FlintCore
import FlintStore

extension AuditWrites {
    /// Appends `PASSWORD_CHANGED` (set, replaced or removed), `EMAIL_CHANGED` (with both addresses) and
    /// `ACCOUNT_DISABLED` / `ACCOUNT_ENABLED` when an account's password hash, email or disabled flag differs between
    /// `before` and `after`, the account as the flow is about to commit it in this transaction.
    func auditAccountChanges(from before: UserRecord, to after: UserRecord, at now: Instant) async throws {
        if before.passwordHash != after.passwordHash {
            try await audit(.passwordChanged, uid: after.localID, at: now, ["removed": .bool(after.passwordHash == nil)])
        }
        if before.email != after.email {
            let from = before.email.map(JSONValue.string) ?? .null
            try await audit(.emailChanged, uid: after.localID, at: now, ["from": from, "to": after.email.map(JSONValue.string) ?? .null])
        }
        if before.disabled != after.disabled {
            try await audit(after.disabled ? .accountDisabled : .accountEnabled, uid: after.localID, at: now)
        }
    }
}
