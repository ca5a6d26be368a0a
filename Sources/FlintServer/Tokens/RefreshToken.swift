import FlintCore
import FlintStore
import Hummingbird

/// `POST /securetoken.googleapis.com/v1/token` with `grant_type=refresh_token` (JSON or form body).
struct RefreshTokenRequest: FormDecodable {
    var grantType: String?
    var refreshToken: String?
}

/// Secure Token's answer (snake_case, string-typed `expires_in`).
struct RefreshTokenResponse: ResponseEncodable {
    var access_token: String
    var expires_in: String
    var token_type: String
    var refresh_token: String
    var id_token: String
    var user_id: String
    var project_id: String
}

struct TokenRoutes {
    let sessions: Sessions
    /// The tenants, for a refresh that names none: its token's tenant must still be open.
    let tenants: TenantCache
    /// How long clients may cache the public keys.
    let keyCacheMaxAge: Duration

    func refresh(_ request: Request, context: FlintRequestContext) async throws -> RefreshTokenResponse {
        let wire = try await context.clientBody(request, as: RefreshTokenRequest.self)
        guard let grant = wire.grantType, !grant.isEmpty else { throw AuthError.missingGrantType }
        guard grant == "refresh_token" else { throw AuthError.invalidGrantType }
        guard let refreshToken = wire.refreshToken, !refreshToken.isEmpty else { throw AuthError.missingRefreshToken }
        return try await sessions.refresh(refreshToken, tenants: tenants)
    }
}

extension Sessions {
    /// Exchanges a refresh token for a fresh ID token. The refresh token stays the same, as in Firebase. A refresh token
    /// stays in its tenant: the request's tenant, when it names one, must be the token's (`TENANT_ID_MISMATCH`); the
    /// account is read in the token's tenant, and the ID token carries it. A request that names no tenant (the iOS SDK's
    /// `securetoken` call sends none) is still refused while the token's tenant has `disableAuth` on (`PROJECT_DISABLED`,
    /// as any call naming that tenant is) or after it was deleted (`TENANT_NOT_FOUND`): `tenants` answers both.
    func refresh(_ refreshToken: String, tenants: TenantCache? = nil) async throws -> RefreshTokenResponse {
        guard refreshToken.utf8.count <= 512 else { throw AuthError.invalidRefreshToken }
        let hash = storedTokenHash(refreshToken)
        let session = try await node.store.read { try await $0.refreshSession(hash: hash) }
        let (record, user) = (session?.token, session?.user)
        guard let record else {
            // A token of ours whose row is gone was revoked (revocation deletes the rows) or went with its deleted
            // user: TOKEN_EXPIRED, USER_DISABLED or USER_NOT_FOUND as Firebase answers; anything else is not ours.
            guard let owner = refreshTokenOwner(refreshToken) else { throw AuthError.invalidRefreshToken }
            guard let user = try await node.store.read({ try await $0.user(tenant: owner.tenant, localID: owner.localID) }) else {
                throw AuthError.userNotFound
            }
            throw user.disabled ? AuthError.userDisabled : AuthError.tokenExpired
        }
        if !TenantScope.tenant.isDefault, record.tenant != TenantScope.tenant {
            throw AuthError.tenantIDMismatch.with(detail: "((Refresh token tenant ID does not match target tenant ID.))")
        }
        if !record.tenant.isDefault, TenantScope.tenant.isDefault, let tenants {
            guard !(try await tenants.resolve(record.tenant.rawValue)).disableAuth else { throw AuthError.projectDisabled }
        }
        guard let user else { throw AuthError.userNotFound }
        guard !user.disabled else { throw AuthError.userDisabled }
        guard record.createdAt >= user.validSince else { throw AuthError.tokenExpired }
        // Session lifetimes (`flint.sessions`), from the row just read: refused as a revoked session is.
        let now = node.clock.now()
        guard node.config.current.sessionLifetimes.allow(signedIn: record.authTime, lastUsed: record.lastUsedAt, now: now) else {
            throw AuthError.tokenExpired
        }
        let second = record.secondFactor.map { SecondFactorClaim(factor: $0, identifier: record.secondFactorID ?? "") }
        let claims = record.developerClaims.flatMap { try? JSONValue(parsing: Array($0.utf8)).objectValue }
        // Federated identities cost a second read only for the accounts that have some.
        var identities: [FederatedIdentityRecord] = []
        if session?.hasIdentities == true {
            identities = try await node.store.read { try await $0.federatedIdentities(tenant: record.tenant, localID: user.localID) }
        }
        let idToken = try idToken(
            for: user, sessionID: record.sessionID, provider: record.signInProvider, authTime: record.authTime, secondFactor: second,
            developerClaims: claims,
            identities: identities)
        activity.note(tenant: record.tenant, localID: user.localID, at: now)
        // The session's last use is written (with the others, once a second) only when the recorded one is older than its
        // precision or the address changed, so most refreshes note nothing for it.
        let ip = AuditOrigin.current.ip
        if now - record.lastUsedAt >= RefreshTokenRecord.lastUsedPrecision || (ip != nil && ip != record.lastIP) {
            activity.note(session: record.tokenHash, at: now, ip: ip)
        }
        return RefreshTokenResponse(
            access_token: idToken, expires_in: String(Self.idTokenLifetime.inSeconds), token_type: "Bearer", refresh_token: refreshToken,
            id_token: idToken, user_id: user.localID, project_id: projectID
        )
    }
}
