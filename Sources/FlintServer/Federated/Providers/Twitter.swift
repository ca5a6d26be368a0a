import FlintCore

/// `twitter.com`: X's OAuth 1.0a. The app's access token and token secret (FirebaseAuth's
/// `TwitterAuthProvider.credential(withToken:secret:)`: `access_token` and `oauth_token_secret` in `postBody`) are
/// checked by asking X's API who they belong to (`account/verify_credentials`, signed with the project's API key and
/// secret — the config's `clientId` and `clientSecret` — and the user's token); the hosted handler's web flow gets them
/// through OAuth 1.0a's three legs. Firebase counts X among the providers that do not vouch for an email: one it gives
/// is unverified, so it never takes over an account by its email (`needConfirmation`).
struct Twitter: BuiltInProvider {
    var providerID: String { "twitter.com" }

    static let requestToken = "https://api.twitter.com/oauth/request_token"
    static let authenticate = "https://api.twitter.com/oauth/authenticate"
    static let accessToken = "https://api.twitter.com/oauth/access_token"
    static let verifyCredentials = "https://api.twitter.com/1.1/account/verify_credentials.json"

    func credential(_ body: IdpPostBody, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential
    {
        guard let token = body.accessToken, !token.isEmpty, let tokenSecret = body.oauthTokenSecret, !tokenSecret.isEmpty else {
            throw AuthError.invalidIdpResponse("Send X's access_token with its oauth_token_secret for twitter.com.")
        }
        guard let key = provider.clientID, !key.isEmpty, let secret = flow.clientSecret(for: provider) else {
            throw AuthError.invalidIdpResponse("twitter.com needs the app's API key and secret (clientId, clientSecret) in the project config.")
        }
        let url = flow.keys.address(Self.verifyCredentials, provider: providerID) + "?include_email=true&skip_status=true"
        let signer = OAuth1(consumerKey: key, consumerSecret: secret, token: token, tokenSecret: tokenSecret)
        let header = signer.authorization(method: "GET", url: url, nonce: flow.oauthNonce(), timestamp: flow.oauthTimestamp())
        guard let answer = await flow.keys.getJSON(url, headers: [("Authorization", header)]) else {
            throw AuthError.invalidIdpResponse("X (twitter.com) could not be reached to verify the access token.")
        }
        guard answer.status < 500 else {
            throw AuthError.invalidIdpResponse("X (twitter.com) is unavailable: \(OAuth1.reason(answer)); try again later.")
        }
        guard answer.status == 200, let user = answer.json?.objectValue, let id = user["id_str"]?.stringValue, !id.isEmpty else {
            throw AuthError.invalidIdpResponse("X (twitter.com) refused the access token: \(OAuth1.reason(answer)).")
        }
        var claims: [String: JSONValue] = ["sub": .string(id), "email_verified": false]
        for (claim, field) in [("email", "email"), ("name", "name"), ("picture", "profile_image_url_https"), ("screen_name", "screen_name")] {
            if let value = user[field]?.stringValue, !value.isEmpty { claims[claim] = .string(value) }
        }
        return ProviderCredential(claims: user, profile: ProviderProfile(claims: claims), oauthAccessToken: token, oauthTokenSecret: tokenSecret)
    }

    func oauth1Endpoints(keys: ProviderKeys) -> OAuth1Endpoints? {
        OAuth1Endpoints(
            requestToken: keys.address(Self.requestToken, provider: providerID), authorization: keys.address(Self.authenticate, provider: providerID),
            accessToken: keys.address(Self.accessToken, provider: providerID))
    }

    /// Firebase's form: `http://twitter.com/<id>`.
    func federatedID(rawID: String) -> String { "http://twitter.com/\(rawID)" }
}
