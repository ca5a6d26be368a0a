import FlintCore
import FlintStore

/// Named admin credentials (`flint admin tokens create NAME`), looked up by the hash of the bearer secret on every
/// admin call, so one revoked with `flint admin tokens revoke` (on any node) is refused at once, and a changed tenant
/// limit (`flint admin tokens tenants`) holds from the next call on.
struct AdminCredentials: Sendable {
    let store: any AuthStore

    /// The named credential `bearer` is the secret of, or `nil` when it is none (or revoked).
    func identify(_ bearer: String) async throws(AuthError) -> AdminIdentity? {
        guard bearer.hasPrefix(AdminSecret.prefix) else { return nil }
        let hash = AdminSecret.hash(bearer)
        let record: AdminCredentialRecord?
        do { record = try await store.read { try await $0.adminCredential(secretHash: hash) } } catch { throw AuthError.internalError }
        guard let record, record.revokedAt == nil else { return nil }
        return AdminIdentity(name: record.name, scope: record.scope, tenants: record.tenants)
    }
}
