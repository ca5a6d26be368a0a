public import FlintStore

/// Which operator credential an admin call carries, as the log of every admin call names it (never its secret).
public struct AdminIdentity: Sendable, Equatable {
    /// The credential's name: a named credential's own, `bootstrap` for `--admin-token`, `owner` for dev mode's
    /// `Bearer owner`.
    public var name: String
    /// What it may do.
    public var scope: AdminScope
    /// The tenants it may act in (``FlintStore/TenantID/default``: the project's own users and settings); `nil` for
    /// every tenant and the project. Held to by ``TenantMiddleware`` (``requireTenant(_:for:)``).
    public var tenants: [TenantID]? = nil

    /// The `--admin-token` credential, kept as a bootstrap beside named credentials.
    static let bootstrap = AdminIdentity(name: "bootstrap", scope: .write)
    /// Dev mode's `Bearer owner`, as the emulator accepts it.
    static let owner = AdminIdentity(name: "owner", scope: .write)
}
