import FlintCore
import FlintStore
import Hummingbird

/// The operator's view of an account's sessions (Flint extension): `GET
/// /flint/v1/projects/{project}/accounts/{localId}/sessions` lists them, `DELETE …/sessions/{session}` ends one. Ending
/// all of them is the Admin SDKs' `revokeRefreshTokens` (`accounts:update` with `validSince`).
struct AdminSessionRoutes {
    let projectID: String
    let sessions: UserSessions

    func list(_ request: Request, context: FlintRequestContext) async throws -> SessionListResponse {
        try context.requireOperator(projectID: projectID)
        return SessionListResponse(sessions: try await sessions.list(localID: try localID(context)).map { SessionJSON($0) })
    }

    func end(_ request: Request, context: FlintRequestContext) async throws -> EmptySessionResponse {
        try context.requireOperator(projectID: projectID)
        let localID = try localID(context)
        guard let session = context.parameters.get("session"), !session.isEmpty else { throw AuthError.notFound }
        try await sessions.endForOperator(localID: localID, sessionID: session)
        return EmptySessionResponse()
    }

    private func localID(_ context: FlintRequestContext) throws -> String {
        guard let id = context.parameters.get("localId"), !id.isEmpty else { throw AuthError.missingLocalID }
        return id
    }
}
