import FlintCore
import Hummingbird

/// An account's lockout (a Flint extension, operator only) at `/flint/v1/projects/{project}/accounts/{localId}/lock`:
/// `GET` answers it (`localId`, `email`, `locked`, `lockedUntil`, `failures`), `DELETE` lifts it (audited as
/// `ACCOUNT_UNLOCKED`) and answers it as it was.
struct AccountLockRoutes {
    let projectID: String
    let locks: AccountLocks

    func get(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try JSONReply.make(try await locks.state(of: try account(context)))
    }

    func delete(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try JSONReply.make(try await locks.unlock(try account(context)))
    }

    /// The account the path names, once the caller is checked as an operator of this project.
    private func account(_ context: FlintRequestContext) throws -> String {
        try context.requireAdmin()
        guard context.parameters.get("project") == projectID else { throw AuthError.projectNotFound }
        guard let id = context.parameters.get("localId"), !id.isEmpty else { throw AuthError.userNotFound }
        return id
    }
}
