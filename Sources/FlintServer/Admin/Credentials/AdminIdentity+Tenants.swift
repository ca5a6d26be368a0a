import FlintCore
import FlintStore

extension AdminIdentity {
    /// Refuses a call to `endpoint` in the tenant `named` (its ID; `nil`: the project's own users and settings, and
    /// every call that names no tenant) unless the credential's tenant limit admits it: a limited credential acts only
    /// in its tenants (the project with ``FlintStore/TenantID/default``), and never creates, lists or deletes tenants,
    /// as Identity Platform's tenant-level IAM cannot. Answered as the read-scope refusal: 403
    /// `INSUFFICIENT_PERMISSION` (`PERMISSION_DENIED`).
    func requireTenant(_ named: String?, for endpoint: Endpoint) throws(AuthError) {
        guard let tenants else { return }
        let tenant = TenantID(rawValue: named ?? "")
        guard tenants.contains(tenant), !Self.unlimitedOnly.contains(endpoint) else {
            let what = Self.unlimitedOnly.contains(endpoint) ? "this call" : tenant.isDefault ? "the project" : "the tenant '\(tenant.rawValue)'"
            throw AuthError.insufficientPermission.with(detail: "The admin credential '\(name)' is limited to tenants; it may not act on \(what).")
        }
    }

    /// The calls only a credential without a tenant limit makes: the tenants' collection and a tenant's deletion.
    private static let unlimitedOnly: [Endpoint] = [APIEndpoint.createTenant, .listTenants, .deleteTenant].map(\.endpoint)
}
