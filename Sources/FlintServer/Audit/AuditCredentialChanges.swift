import FlintCore
import FlintStore

extension AuditWrites {
    /// Appends `PASSWORD_CHANGED` (set, replaced or removed) and `EMAIL_CHANGED` (with both addresses) when an
    /// account's password hash or email differs between `before` and `after`, the account as the flow is about to
    /// commit it in this transaction.
    func auditCredentialChanges(from before: UserRecord, to after: UserRecord, at now: Instant) async throws {
        if before.passwordHash != after.passwordHash {
            try await audit(.passwordChanged, uid: after.localID, at: now, ["removed": .bool(after.passwordHash == nil)])
        }
        if before.email != after.email {
            let from = before.email.map(JSONValue.string) ?? .null
            try await audit(.emailChanged, uid: after.localID, at: now, ["from": from, "to": after.email.map(JSONValue.string) ?? .null])
        }
    }
}
