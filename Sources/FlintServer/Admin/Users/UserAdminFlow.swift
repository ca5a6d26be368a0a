import FlintCore
import FlintStore

/// The operator's management of many accounts at once: pages of every account (`accounts:batchGet`), queries
/// (`accounts:query`) and batch deletes (`accounts:batchDelete`). One account at a time stays with ``AccountsFlow``
/// (`lookup`, `update`, `delete`) and ``PasswordFlow`` (the operator's `signUp`).
struct UserAdminFlow: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
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
