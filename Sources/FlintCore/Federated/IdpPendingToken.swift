package import Crypto

/// `signInWithIdp`'s `pendingToken`: a provider identity Flint verified, sealed (AES-256-GCM, ``SealedToken``) so the
/// app can present it again without the provider's credential — after `needConfirmation`, to link it once the user
/// signed in another way, or after a linking conflict. It holds the profile's claims, the provider, the tenant it was
/// verified in (it is presented in that tenant only) and an expiry.
package struct IdpPendingToken: Sendable, Equatable {
    /// How long a pending token may be presented.
    package static let lifetime: Duration = .seconds(3600)

    /// The provider that vouched for the identity.
    package var providerID: String
    /// The identity's claims (`sub`, `email`, `email_verified`, names, `picture`, `screen_name`).
    package var claims: [String: JSONValue]
    /// When it stops being accepted.
    package var expiresAt: Instant
    /// The tenant whose sign-in verified the identity; empty for the project's own users.
    package var tenant: String

    /// A pending token for `profile` in `tenant`, valid for ``lifetime`` from `now`.
    package init(providerID: String, profile: ProviderProfile, tenant: String = "", now: Instant) {
        (self.providerID, self.tenant) = (providerID, tenant)
        var claims: [String: JSONValue] = ["sub": .string(profile.rawID), "email_verified": .bool(profile.emailVerified)]
        if let email = profile.email { claims["email"] = .string(email) }
        if let name = profile.displayName { claims["name"] = .string(name) }
        if let first = profile.firstName { claims["given_name"] = .string(first) }
        if let last = profile.lastName { claims["family_name"] = .string(last) }
        if let picture = profile.photoURL { claims["picture"] = .string(picture) }
        if let handle = profile.screenName { claims["screen_name"] = .string(handle) }
        self.claims = claims
        expiresAt = now + Self.lifetime
    }

    /// Seals the token.
    package func seal(key: SymmetricKey) throws -> String {
        var writer = PayloadWriter()
        writer.append(expiresAt.millisecondsSince1970)
        writer.append(providerID)
        writer.append(JSONValue.object(claims).serialized())
        if !tenant.isEmpty { writer.append(tenant) }
        return try SealedToken.seal(writer.bytes, kind: .idpPendingToken, key: key)
    }

    /// Opens a sealed token; `nil` when it is not one of ours or has expired.
    package init?(opening text: String, key: SymmetricKey, now: Instant) {
        guard let payload = SealedToken.open(text, kind: .idpPendingToken, key: key) else { return nil }
        var reader = PayloadReader(payload)
        guard let expires = reader.int64(), let provider = reader.string(), let bytes = reader.data(),
            let claims = (try? JSONValue(parsing: bytes))?.objectValue
        else { return nil }
        let tenant = reader.isAtEnd ? "" : reader.string()
        guard let tenant, reader.isAtEnd, now < Instant(millisecondsSince1970: expires) else { return nil }
        (providerID, self.claims, expiresAt, self.tenant) = (provider, claims, Instant(millisecondsSince1970: expires), tenant)
    }
}
