public import FlintCore
public import FlintStore

/// Changes of named admin credentials, for `flint admin tokens create|revoke|tenants`: each one transaction with its
/// audit event (`ADMIN_CREDENTIAL_CHANGED`, actor `cli`, `detail.credential` and `detail.step`: `created`, `revoked`,
/// `tenantsChanged`). Every node reads the credential on each call it carries, so a change holds from the next call on.
public enum AdminCredentialChanges {
    /// Creates the credential `name` with `scope`, limited to `tenants` (``FlintStore/TenantID/default`` for the
    /// project's own users and settings; `nil`: no limit), and answers its secret (shown once: only its SHA-256 is
    /// stored).
    /// - Throws: ``FlintStore/StoreError/conflict(_:)`` when an unrevoked credential has the name; `TENANT_NOT_FOUND`
    ///   when a tenant named does not exist.
    public static func create(
        name: String, scope: AdminScope, tenants: [TenantID]?, in store: any AuthStore, now: Instant, random: any RandomSource
    ) async throws -> String {
        let secret = AdminSecret.generate(random: random)
        let record = AdminCredentialRecord(secretHash: AdminSecret.hash(secret), name: name, scope: scope, createdAt: now, tenants: tenants)
        try await store.write { tx in
            try await TenantLimit.requireExisting(record.tenants, in: tx)
            try await tx.insertAdminCredential(record)
            var detail = TenantLimit.auditDetail(record.tenants)
            (detail["credential"], detail["scope"], detail["step"]) = (.string(name), .string(scope.rawValue), "created")
            try await tx.appendAuditEvent(AuditEvent(at: now, kind: .adminCredentialChanged, actor: "cli", detail: detail))
        }
        return secret
    }

    /// Revokes the unrevoked credential `name`; answers whether there was one (nothing is audited when not).
    public static func revoke(name: String, in store: any AuthStore, now: Instant) async throws -> Bool {
        try await store.write { tx in
            guard try await tx.revokeAdminCredential(name: name, at: now) else { return false }
            try await tx.appendAuditEvent(
                AuditEvent(at: now, kind: .adminCredentialChanged, actor: "cli", detail: ["credential": .string(name), "step": "revoked"]))
            return true
        }
    }

    /// Limits the unrevoked credential `name` to `tenants`, or lifts its limit (`nil`); answers the credential as
    /// changed, `nil` when there is none (nothing is audited then).
    /// - Throws: `TENANT_NOT_FOUND` when a tenant named does not exist.
    public static func setTenants(name: String, tenants: [TenantID]?, in store: any AuthStore, now: Instant) async throws -> AdminCredentialRecord? {
        try await store.write { tx in
            try await TenantLimit.requireExisting(tenants, in: tx)
            guard let changed = try await tx.setAdminCredentialTenants(name: name, tenants: tenants) else { return nil }
            var detail = TenantLimit.auditDetail(changed.tenants)
            (detail["credential"], detail["step"]) = (.string(name), "tenantsChanged")
            try await tx.appendAuditEvent(AuditEvent(at: now, kind: .adminCredentialChanged, actor: "cli", detail: detail))
            return changed
        }
    }
}
