/// The tenant an account and everything keyed by it belong to (Identity Platform's multi-tenancy). Stored as its raw
/// text in every user-keyed table's `tenant_id`, first in their keys; the default tenant (the project's own users) is
/// the empty text, never `NULL`, so every key stays a plain equality. A tenant resource's ID is never empty.
public struct TenantID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The stored text: a tenant resource's ID, or empty for the default tenant.
    public let rawValue: String

    /// A tenant from its stored text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The project's own users: every account before tenants, and every request that names none.
    public static let `default` = TenantID(rawValue: "")

    /// Whether this is the default tenant.
    public var isDefault: Bool { rawValue.isEmpty }

    public var description: String { rawValue }
}

extension TenantID {
    /// A tenant limit (an operator's, an admin credential's) as it is kept: its tenants sorted, without repeats; `nil`
    /// (no limit: every tenant and the project) stays `nil`.
    public static func limit(_ tenants: [TenantID]?) -> [TenantID]? {
        tenants.map { Array(Set($0)).sorted { $0.rawValue < $1.rawValue } }
    }
}
