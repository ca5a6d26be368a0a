import FlintCore
import FlintStore
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// ID tokens, refresh tokens and the checks on incoming ID tokens.
extension Sessions {
    /// The lifetime of an ID token, as Firebase: one hour, sent as the string `"3600"`.
    static let idTokenLifetime: Duration = .seconds(3600)

    /// A new refresh token value and its stored record. The value is `AMf-` + base64url(32 random bytes ‖ owner ‖
    /// 16-byte tag), the owner being the account's `localId`, or in a tenant `0x00 ‖ tenant ID ‖ 0x00 ‖ localId`: the
    /// tag lets a token whose row went away with its deleted user still be answered `USER_NOT_FOUND`, as Firebase does,
    /// and one whose session ended `TOKEN_EXPIRED` (looked up in its own tenant), while a forged one is
    /// `INVALID_REFRESH_TOKEN`.
    func newRefreshToken(
        tenant: TenantID, localID: String, authTime: Instant, provider: String, now: Instant
    ) -> (token: String, record: RefreshTokenRecord) {
        let owner = tenant.isDefault ? Array(localID.utf8) : [0] + Array(tenant.rawValue.utf8) + [0] + Array(localID.utf8)
        let body = node.random.bytes(32) + owner
        let token = "AMf-" + Base64URL.encode(body + secret.refreshTokenTag(body))
        var record = RefreshTokenRecord(
            tenant: tenant, tokenHash: storedTokenHash(token), localID: localID, createdAt: now, authTime: authTime, signInProvider: provider)
        let origin = AuditOrigin.current
        record.device = DeviceName.parse(userAgent: origin.userAgent, clientVersion: origin.clientVersion)
        (record.firstIP, record.lastIP) = (origin.ip, origin.ip)
        return (token, record)
    }

    /// The account a refresh token was issued to, when the token is one of ours (its tag checks). A token issued in a
    /// tenant before tokens named their tenant names the default one.
    func refreshTokenOwner(_ token: String) -> (tenant: TenantID, localID: String)? {
        guard token.hasPrefix("AMf-"), let raw = Base64URL.decodeCanonical(token.dropFirst(4)), raw.count > 48 else { return nil }
        let body = Array(raw.dropLast(16))
        guard constantTimeEquals(Array(raw.suffix(16)), secret.refreshTokenTag(body)) else { return nil }
        let owner = body[32...]
        guard owner.first == 0 else { return String(validating: owner, as: UTF8.self).map { (.default, $0) } }
        let rest = owner.dropFirst()
        guard let end = rest.firstIndex(of: 0), let tenant = String(validating: rest[..<end], as: UTF8.self),
            let localID = String(validating: rest[(end + 1)...], as: UTF8.self)
        else { return nil }
        return (TenantID(rawValue: tenant), localID)
    }

    /// The session claims that carry a SAML sign-in's attributes to its ID tokens (`firebase.sign_in_attributes`), kept
    /// with the refresh token as developer claims are, so refreshed tokens carry them too.
    static func signInAttributesClaims(_ attributes: [String: JSONValue]) -> [String: JSONValue] {
        ["firebase": .object(["sign_in_attributes": .object(attributes)])]
    }

    /// Signs an ID token for `user` in the session `sessionID`. A custom-token session's `developerClaims` go over the
    /// account's own claims; `identities` (the account's federated identities) are listed in `firebase.identities` by provider;
    /// the account's tenant, other than the default one, is `firebase.tenant`.
    func idToken(
        for user: UserRecord, sessionID: String, provider: String, authTime: Instant, secondFactor: SecondFactorClaim? = nil,
        developerClaims: [String: JSONValue]? = nil,
        identities: [FederatedIdentityRecord] = []
    ) throws -> String {
        var claims = IDTokenClaims(
            projectID: projectID, userID: user.localID, authTime: authTime, issuedAt: node.clock.now(), signInProvider: provider
        )
        claims.sessionID = sessionID
        claims.lifetime = Self.idTokenLifetime
        claims.revocationGeneration = user.revocationGeneration
        claims.tenant = user.tenant.isDefault ? nil : user.tenant.rawValue
        claims.phoneNumber = user.phoneNumber
        claims.email = user.email
        if user.email != nil { claims.emailVerified = user.emailVerified }
        claims.name = user.displayName
        claims.picture = user.photoURL
        if let phone = user.phoneNumber { claims.identities["phone"] = [phone] }
        if let email = user.email { claims.identities["email"] = [email] }
        for identity in identities { claims.identities[identity.providerID, default: []].append(identity.rawID) }
        if let second = secondFactor {
            claims.secondFactor = second.factor.rawValue
            claims.secondFactorIdentifier = second.identifier
        }
        if let text = user.customAttributes {
            do {
                claims.customClaims = try JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))
            } catch {
                // Claims are checked when set; a stored value that does not parse is left out of the token, loudly.
                node.logger.error("stored custom claims do not parse", metadata: ["uid": "\(user.localID)", "errorType": "\(type(of: error))"])
            }
        }
        if var developerClaims {
            // A SAML session's attributes, kept with its refresh token under the reserved `firebase` name no developer
            // claim can take (``signInAttributesClaims(_:)``).
            claims.signInAttributes = developerClaims["firebase"]?["sign_in_attributes"]?.objectValue
            developerClaims["firebase"] = nil
            claims.customClaims.merge(developerClaims) { $1 }
        }
        do {
            return try TokenSigner.sign(claims, with: keys.current)
        } catch {
            node.logger.error("token signing failed", metadata: ["errorType": "\(type(of: error))"])
            throw AuthError.internalError
        }
    }

    /// Verifies an ID token and loads its user: `INVALID_ID_TOKEN`, `TENANT_ID_MISMATCH` (a token of another tenant
    /// than the request's), `USER_NOT_FOUND`, `TOKEN_EXPIRED` (issued before the user's `validSince`, or its session
    /// ended), `USER_DISABLED`. A token naming its session reads the account and whether the session lives in one
    /// statement.
    func authenticate(idToken: String?) async throws -> (VerifiedIDToken, UserRecord) {
        let verified = try verifyIDToken(idToken)
        let found = try await node.store.read { tx -> (UserRecord, Bool)? in
            guard let sessionID = verified.sessionID else { return try await tx.user(tenant: .scoped, localID: verified.userID).map { ($0, true) } }
            return try await tx.userWithSession(tenant: .scoped, localID: verified.userID, sessionID: sessionID)
        }
        guard let (user, sessionLive) = found else { throw AuthError.userNotFound }
        try Self.check(token: verified, against: user)
        guard sessionLive else { throw AuthError.tokenExpired }
        return (verified, user)
    }

    /// The session ID of a refresh token's value (``RefreshTokenRecord/sessionID``).
    static func sessionID(ofRefreshToken token: String) -> String {
        String(storedTokenHash(token).prefix(RefreshTokenRecord.sessionIDLength))
    }

    /// The disable and revocation checks for a verified token and its (re-read) user: a disabled user's token is
    /// `USER_DISABLED` (checked first, as Firebase does: disabling also ends the sessions, which alone would answer
    /// `TOKEN_EXPIRED`); a token minted before the user's last revocation (an earlier generation, or before
    /// `validSince`) is `TOKEN_EXPIRED`.
    static func check(token: VerifiedIDToken, against user: UserRecord) throws(AuthError) {
        guard !user.disabled else { throw AuthError.userDisabled }
        guard token.issuedAt >= user.validSince, token.revocationGeneration >= user.revocationGeneration else { throw AuthError.tokenExpired }
    }
}
