import FlintCore
import FlintStore

/// The operator's management of many accounts at once: pages of every account (`accounts:batchGet`), queries
/// (`accounts:query`) and batch deletes (`accounts:batchDelete`). One account at a time stays with ``AccountsFlow``
/// (`lookup`, `update`, `delete`) and ``PasswordFlow`` (the operator's `signUp`).
struct UserAdminFlow: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node

    /// The store aggregates its transactions touch: the listings' batch deletes, the audit log.
    typealias Writes = UserListingWrites & AuditWrites
    /// What its listings read: pages of accounts with their second factors, federated identities and passkeys.
    typealias Reads = UserListingReads & UsersReads & PasskeysReads
}

extension UserAdminFlow {
    /// A listing's accounts with, by account ID, their second factors, federated identities and passkeys.
    typealias Listing = (
        users: [UserRecord], enrollments: [String: [MFAEnrollmentRecord]], identities: [String: [FederatedIdentityRecord]],
        passkeys: [String: [PasskeyRecord]]
    )

    /// `users` with, by account ID, their second factors, federated identities and passkeys.
    static func listing(_ users: [UserRecord], in r: some Reads) async throws -> Listing {
        let ids = users.map(\.localID)
        return (
            users, try await r.mfaEnrollments(tenant: .scoped, localIDs: ids), try await r.federatedIdentities(tenant: .scoped, localIDs: ids),
            try await r.passkeys(tenant: .scoped, localIDs: ids)
        )
    }
}

/// The route group of the operator's user listings, on the Admin SDKs' `v1/projects/{project}/…` paths.
struct UserAdminRoutes {
    let flow: UserAdminFlow

    /// The project this node serves.
    var projectID: String { flow.node.settings.projectID }
}

extension FlintRequestContext {
    /// An operator-only endpoint's way in: the admin credential, and this server's project in the path when the path
    /// names one.
    func requireOperator(projectID: String) throws(AuthError) {
        try requireAdmin()
        try checkAdminPath(projectID: projectID)
    }
}
