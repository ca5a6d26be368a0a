public import FlintCore

/// Operator views of the users table: pages in local-ID order, queries, batch reads, each within one tenant. Queries.
public protocol UserListingReads: Sendable {
    /// A page of accounts in local-ID order: up to `limit` whose ID sorts after `after` (from the first when `nil`).
    /// Keyset pagination on the primary key (`tenant_id`, `local_id`): a page costs the same however deep it is.
    func users(tenant: TenantID, after: String?, limit: Int) async throws -> [UserRecord]
    /// The accounts among `localIDs` that exist, in local-ID order.
    func users(tenant: TenantID, localIDs: [String]) async throws -> [UserRecord]
    /// The second factors of the accounts among `localIDs`, by account, each account's oldest first.
    func mfaEnrollments(tenant: TenantID, localIDs: [String]) async throws -> [String: [MFAEnrollmentRecord]]
    /// The accounts an operator's query selects, in its order and window.
    func users(tenant: TenantID, matching query: UserQuery) async throws -> [UserRecord]
    /// How many accounts meet `filter` (every account when `nil`).
    func userCount(tenant: TenantID, matching filter: UserFilter?) async throws -> Int
    /// How many accounts each tenant holds (the default tenant's included, when it has any), the `limit` largest
    /// first (ties by tenant ID), with the number of tenants holding accounts and the accounts of all: `flint doctor`'s
    /// summary. One pass over the users' primary key, which leads with the tenant.
    func userCountsByTenant(limit: Int) async throws -> TenantUserCounts
}

/// Accounts per tenant: the largest tenants' counts and the totals (``UserListingReads/userCountsByTenant(limit:)``).
public struct TenantUserCounts: Sendable, Equatable {
    /// The largest tenants by accounts, largest first.
    public var top: [(tenant: TenantID, users: Int)]
    /// Tenants (the default one included) with at least one account.
    public var tenants: Int
    /// Accounts in every tenant.
    public var users: Int

    public init(top: [(tenant: TenantID, users: Int)], tenants: Int, users: Int) { (self.top, self.tenants, self.users) = (top, tenants, users) }

    public static func == (a: Self, b: Self) -> Bool {
        a.tenants == b.tenants && a.users == b.users && a.top.map(\.tenant) == b.top.map(\.tenant) && a.top.map(\.users) == b.top.map(\.users)
    }
}

/// Operator changes to accounts that touch several rows at once, and the sign-in stamp. Writes, inside a transaction.
public protocol UserListingWrites: UserListingReads {
    /// Deletes the accounts among `localIDs` with their refresh tokens, second factors, recovery codes and federated
    /// identities.
    /// - Returns: the IDs that existed (and are gone).
    func deleteUsers(tenant: TenantID, localIDs: [String]) async throws -> Set<String>
    /// Replaces every second factor of an account with `enrollments` (recovery codes are left to the caller).
    /// Throws ``StoreError/conflict(_:)`` (``StoreConflict/secondFactor``) if two of them share a phone number or an enrolment ID is taken.
    func replaceMFAEnrollments(tenant: TenantID, localID: String, with enrollments: [MFAEnrollmentRecord]) async throws
    /// Records a sign-in that minted tokens: `lastLoginAt` and `lastRefreshAt`, in one statement that leaves the
    /// rest of the row alone.
    func recordSession(tenant: TenantID, localID: String, at: Instant) async throws
}
