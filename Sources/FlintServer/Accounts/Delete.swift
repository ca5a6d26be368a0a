import FlintCore
import FlintStore
import Hummingbird

/// `accounts:delete` (v1), `relyingparty/deleteAccount` (v3), and the admin form (`localId`).
/// Deleting a user also deletes its refresh tokens, so they stop working at once.
struct DeleteAccountRequest: Decodable {
    var idToken: String?
    var localId: String?
}

package struct DeleteAccountResponse: ResponseEncodable {
    var kind = "identitytoolkit#DeleteAccountResponse"
}

extension AccountRoutes {
    func delete(_ request: Request, context: FlintRequestContext) async throws -> DeleteAccountResponse {
        let wire = try await context.clientBody(request, as: DeleteAccountRequest.self, projectID: accounts.node.settings.projectID)
        let localID: String
        if context.isAdmin, wire.idToken == nil {
            guard let id = wire.localId, !id.isEmpty else { throw AuthError.missingLocalID }
            localID = id
            AuditOrigin.current.notes.subject = id
        } else {
            localID = try await accounts.sessions.authenticate(idToken: wire.idToken).1.localID
        }
        return try await accounts.deleteAccount(localID: localID)
    }
}

extension AccountsFlow {
    /// Deletes an account with its sessions and second factors; `USER_NOT_FOUND` if there is none.
    package func deleteAccount(localID: String) async throws -> DeleteAccountResponse {
        let now = node.clock.now()
        let existed = try await node.store.write { tx in
            try await Self.delete(localID, in: tx, now: now)
        }
        guard existed else { throw AuthError.userNotFound }
        return DeleteAccountResponse()
    }

    /// Deletes the account and audits it; false if there was none.
    private static func delete(_ localID: String, in tx: some Writes, now: Instant) async throws -> Bool {
        guard try await tx.deleteUser(tenant: .scoped, localID: localID) else { return false }
        try await tx.audit(.accountDeleted, uid: localID, at: now)
        return true
    }
}
