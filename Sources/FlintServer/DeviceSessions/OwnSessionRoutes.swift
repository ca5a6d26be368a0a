import FlintCore
import FlintStore
import Hummingbird

/// `POST /flint/v1/accounts/sessions:list` (Flint extension): the signed-in user's sessions, theirs marked `current`
/// (the session their ID token names in `firebase.session_id`).
struct ListOwnSessionsRequest: Decodable, Sendable {
    var idToken: String?
}

/// `POST /flint/v1/accounts/sessions:end` (Flint extension): ends one of the signed-in user's sessions (their own
/// too: a sign-out the server sees).
struct EndOwnSessionRequest: Decodable, Sendable {
    var idToken: String?
    var sessionId: String?
}

/// `POST /flint/v1/accounts/sessions:endOthers` (Flint extension): "sign out everywhere else" — ends every session of
/// the signed-in user but the one their ID token names.
struct EndOtherSessionsRequest: Decodable, Sendable {
    var idToken: String?
}

/// How many sessions `sessions:endOthers` ended.
struct EndOtherSessionsResponse: ResponseEncodable {
    var endedCount: Int
}

/// An empty answer.
struct EmptySessionResponse: ResponseEncodable {}

extension UserSessions {
    func listOwn(_ wire: ListOwnSessionsRequest) async throws -> SessionListResponse {
        let (token, user) = try await sessions.authenticate(idToken: wire.idToken)
        let current = token.sessionID
        return SessionListResponse(sessions: try await list(localID: user.localID).map { SessionJSON($0, current: $0.sessionID == current) })
    }

    func endOwn(_ wire: EndOwnSessionRequest) async throws -> EmptySessionResponse {
        let (_, user) = try await sessions.authenticate(idToken: wire.idToken)
        guard let sessionID = wire.sessionId, !sessionID.isEmpty else { throw AuthError.invalidArgument("sessionId is required") }
        try await end(localID: user.localID, sessionID: sessionID, by: .owner)
        return EmptySessionResponse()
    }

    func endOthersOwn(_ wire: EndOtherSessionsRequest) async throws -> EndOtherSessionsResponse {
        let (token, user) = try await sessions.authenticate(idToken: wire.idToken)
        // A token minted before sessions had IDs names none: it cannot say which session to keep.
        guard let current = token.sessionID else { throw AuthError.credentialTooOld.with(detail: "Refresh the ID token first.") }
        return EndOtherSessionsResponse(endedCount: try await endOthers(localID: user.localID, keeping: current, by: .owner))
    }
}
