public import Foundation

/// One session of the signed-in user's account — a device signed in with its own refresh token — as Flint records it
/// (a Flint extension; FirebaseAuth has none).
public struct UserSession: Sendable, Equatable, Identifiable {
    /// The session's ID, which ``User/endSession(_:)`` takes.
    public let id: String
    /// The device as a short name ("Safari on iPhone", "FirebaseAuth iOS SDK"), when its sign-in told.
    public let device: String?
    /// The client address of its sign-in.
    public let firstIPAddress: String?
    /// The client address of its latest recorded use.
    public let lastIPAddress: String?
    /// When it was issued.
    public let creationDate: Date?
    /// Its latest recorded use (at most ten minutes behind).
    public let lastUsedDate: Date?
    /// The sign-in method (`password`, `phone`, `google.com`, …).
    public let signInProvider: String?
    /// The second factor its sign-in passed, if any (`phone`, `totp`).
    public let secondFactor: String?
    /// Whether it is this app's own session.
    public let isCurrent: Bool
}

extension User {
    /// Flint extension: the account's sessions, most recently used first (`/flint/v1/accounts/sessions:list`).
    /// - Throws: `userTokenExpired`, `networkError`, `operationNotAllowed` when the SDK does not talk to a Flint server.
    public func sessions() async throws -> [UserSession] {
        let response = try await backend.callFlint(
            "/flint/v1/accounts/sessions:list", IDTokenRequest(idToken: try await getIDToken()), as: SessionListResponse.self)
        return (response.sessions ?? []).map(Self.session)
    }

    /// Flint extension: ends one of the account's sessions (`sessions:end`): its refresh token is refused at once and
    /// its ID tokens wherever Flint checks them, so that device is signed out at its next refresh. Ending this app's
    /// own session signs it out at its next refresh too.
    /// - Throws: `userTokenExpired`, `networkError`; an unknown ID is `internalError` with `SESSION_NOT_FOUND`.
    public func endSession(_ id: String) async throws {
        _ = try await backend.callFlint(
            "/flint/v1/accounts/sessions:end", EndSessionRequest(idToken: try await getIDToken(), sessionId: id), as: EmptyResponse.self)
    }

    /// Flint extension: signs the account out everywhere else (`sessions:endOthers`), keeping this app's session.
    /// - Returns: how many sessions ended.
    @discardableResult
    public func endOtherSessions() async throws -> Int {
        let response = try await backend.callFlint(
            "/flint/v1/accounts/sessions:endOthers", IDTokenRequest(idToken: try await getIDToken()), as: EndOtherSessionsResponse.self)
        return response.endedCount ?? 0
    }

    private static func session(_ wire: SessionListResponse.Session) -> UserSession {
        let date = { (text: String?) in text.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) } }
        return UserSession(
            id: wire.sessionId, device: wire.device, firstIPAddress: wire.firstIp, lastIPAddress: wire.lastIp, creationDate: date(wire.createdAt),
            lastUsedDate: date(wire.lastUsedAt), signInProvider: wire.signInProvider, secondFactor: wire.secondFactor,
            isCurrent: wire.current ?? false)
    }
}
