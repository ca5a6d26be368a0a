import FlintCore

/// Sign in with Apple's token endpoint (exchanging an authorization code) and revocation endpoint, called with a
/// fresh client secret (``AppleClientSecret``) for the configured client IDs, through ``ProviderKeys``' HTTP client
/// (and dev mode's stand-in origin for apple.com).
struct AppleTokenClient: Sendable {
    /// Apple's endpoints.
    static let tokenEndpoint = "https://appleid.apple.com/auth/token"
    static let revokeEndpoint = "https://appleid.apple.com/auth/revoke"

    /// What an exchanged code gave: the token to revoke (the refresh token, else the access token), its
    /// `token_type_hint`, the client ID the code was issued to, and the ID token.
    struct Tokens: Sendable {
        var revocable: String
        var hint: String
        var clientID: String
        var idToken: String?
    }

    let keys: ProviderKeys
    let secret: AppleClientSecret
    /// The apple.com config's client ID (services ID), then its bundle IDs: a code is issued to one of them.
    let clientIDs: [String]
    let now: Instant

    /// Exchanges `code` (`grant_type=authorization_code`), trying each client ID until Apple accepts one.
    /// - Throws: `INVALID_IDP_RESPONSE` with Apple's error when none is accepted or Apple cannot be reached.
    func exchange(code: String, redirectURI: String?) async throws(AuthError) -> Tokens {
        var refusal = "invalid_grant"
        for clientID in clientIDs {
            var fields = [
                ("client_id", clientID), ("client_secret", try clientSecret(clientID)), ("code", code), ("grant_type", "authorization_code"),
            ]
            if let redirectURI, !redirectURI.isEmpty { fields.append(("redirect_uri", redirectURI)) }
            guard let answer = await keys.postForm(keys.address(Self.tokenEndpoint, provider: "apple.com"), fields) else {
                throw AuthError.invalidIdpResponse("Error getting access token from Apple: Apple could not be reached.")
            }
            guard answer.status == 200 else {
                refusal = answer.json?["error"]?.stringValue ?? "HTTP \(answer.status)"
                continue
            }
            let json = answer.json
            let idToken = json?["id_token"]?.stringValue
            if let refresh = json?["refresh_token"]?.stringValue, !refresh.isEmpty {
                return Tokens(revocable: refresh, hint: "refresh_token", clientID: clientID, idToken: idToken)
            }
            if let access = json?["access_token"]?.stringValue, !access.isEmpty {
                return Tokens(revocable: access, hint: "access_token", clientID: clientID, idToken: idToken)
            }
            throw AuthError.invalidIdpResponse("Error getting access token from Apple: the answer has no token.")
        }
        throw AuthError.invalidIdpResponse("Error getting access token from Apple: \(refusal)")
    }

    /// Revokes `token` (`token_type_hint` `hint`) for `clientID`.
    /// - Throws: `INVALID_IDP_RESPONSE` with Apple's error when it refuses or cannot be reached.
    func revoke(_ token: String, hint: String, clientID: String) async throws(AuthError) {
        let fields = [("client_id", clientID), ("client_secret", try clientSecret(clientID)), ("token", token), ("token_type_hint", hint)]
        guard let answer = await keys.postForm(keys.address(Self.revokeEndpoint, provider: "apple.com"), fields) else {
            throw AuthError.invalidIdpResponse("Error revoking the token at Apple: Apple could not be reached.")
        }
        guard answer.status == 200 else {
            let error = answer.json?["error"]?.stringValue ?? "HTTP \(answer.status)"
            throw AuthError.invalidIdpResponse("Error revoking the token at Apple: \(error)")
        }
    }

    private func clientSecret(_ clientID: String) throws(AuthError) -> String {
        do { return try secret.secret(clientID: clientID, now: now) } catch { throw AuthError.invalidIdpResponse(error.message) }
    }
}
