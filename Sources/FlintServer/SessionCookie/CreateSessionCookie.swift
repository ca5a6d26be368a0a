import FlintCore
import FlintStore
import Hummingbird
import Logging

/// `POST v1/projects/{project}:createSessionCookie`, operator only.
struct CreateSessionCookieRequest: Decodable {
    var idToken: String?
    /// Seconds, 300 to 1,209,600; absent (or 0) means the longest, as the emulator.
    var validDuration: Int64?
}

struct CreateSessionCookieResponse: ResponseEncodable {
    var sessionCookie: String
}

struct SessionCookieRoutes {
    let cookies: SessionCookies

    func create(_ request: Request, context: FlintRequestContext) async throws -> CreateSessionCookieResponse {
        let wire = try await context.clientBody(request, as: CreateSessionCookieRequest.self, projectID: cookies.node.settings.projectID)
        return CreateSessionCookieResponse(sessionCookie: try await cookies.create(idToken: wire.idToken, validDuration: wire.validDuration))
    }
}

extension SessionCookies {
    /// A cookie for the session of `idToken`: its claims (`firebase.revocation_generation` included, so a revocation
    /// ends the cookie too), with the session issuer, `iat` now and `exp` `validDuration` later.
    /// - Throws: `MISSING_ID_TOKEN`, `INVALID_DURATION`, and the ID token's own errors (`INVALID_ID_TOKEN`,
    ///   `USER_NOT_FOUND`, `TOKEN_EXPIRED` when revoked, `USER_DISABLED`).
    func create(idToken: String?, validDuration: Int64?) async throws -> String {
        guard let idToken, !idToken.isEmpty else { throw AuthError.missingIDToken }
        // The wire's `validDuration` is whole seconds; 0 (proto3's unset) means the longest.
        let duration = validDuration.flatMap { $0 == 0 ? nil : Duration.seconds($0) } ?? Self.validDurations.upperBound
        guard Self.validDurations.contains(duration) else { throw AuthError.invalidDuration }
        let (token, _) = try await sessions.authenticate(idToken: idToken)
        let now = node.clock.now()
        var payload = token.payload
        payload["iss"] = .string(Self.issuer(projectID: sessions.projectID))
        payload["iat"] = .number(Double(now.secondsSince1970))
        payload["exp"] = .number(Double((now + duration).secondsSince1970))
        guard let key = sessions.keys.current.signer(at: now) else { throw AuthError.internalError }
        do {
            return try TokenSigner.sign(payload: payload, with: key)
        } catch {
            node.logger.error("session cookie signing failed", metadata: ["errorType": "\(type(of: error))"])
            throw AuthError.internalError
        }
    }
}
