package import Crypto

/// An OAuth 1.0a request token and its secret (Twitter's web flow), sealed (AES-256-GCM, ``SealedToken``) into the
/// cookie the hosted handler's start sets and its callback reads: the callback's `oauth_token` names the token, and
/// only its secret signs the access token's request. The provider's callback URL, fixed before the token exists, cannot
/// carry it, and nothing is stored on the server, so any node serves the callback.
package struct OAuthRequestToken: Sendable, Equatable {
    package var token: String
    package var secret: String
    /// When it stops being accepted (the sign-in's own expiry).
    package var expiresAt: Instant

    package init(token: String, secret: String, expiresAt: Instant) {
        (self.token, self.secret, self.expiresAt) = (token, secret, expiresAt)
    }

    /// Seals the token.
    package func seal(key: SymmetricKey) throws -> String {
        var writer = PayloadWriter()
        writer.append(expiresAt.millisecondsSince1970)
        writer.append(token)
        writer.append(secret)
        return try SealedToken.seal(writer.bytes, kind: .oauthRequestToken, key: key)
    }

    /// Opens a sealed token; `nil` when it is not one of ours or has expired.
    package init?(opening text: String, key: SymmetricKey, now: Instant) {
        guard let payload = SealedToken.open(text, kind: .oauthRequestToken, key: key) else { return nil }
        var reader = PayloadReader(payload)
        guard let expires = reader.int64(), let token = reader.string(), let secret = reader.string(), reader.isAtEnd else { return nil }
        guard now < Instant(millisecondsSince1970: expires) else { return nil }
        (self.token, self.secret, expiresAt) = (token, secret, Instant(millisecondsSince1970: expires))
    }
}
