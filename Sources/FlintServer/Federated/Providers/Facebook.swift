import Crypto
import FlintCore

/// `facebook.com`: Facebook Login. An access token (`access_token`, what `FacebookAuthProvider` sends) is checked with
/// the Graph API's `debug_token` under the app's own token (`clientId|clientSecret`): it must be valid and issued to
/// this app; the profile is then `/me` (with `appsecret_proof`, as Facebook recommends). A Limited Login ID token
/// (`id_token` with the app's raw `nonce`) is verified as OIDC against Facebook's keys. The hosted handler's web flow
/// redeems its code for an access token checked the same way.
///
/// Facebook's emails are not taken as verified, as Firebase takes them: an existing account with the address answers
/// `needConfirmation`. `federatedId` is `http://facebook.com/<id>`, as Firebase answers it.
struct Facebook: BuiltInProvider {
    var providerID: String { "facebook.com" }

    /// The Graph API version Flint calls.
    static let graph = "https://graph.facebook.com/v19.0"
    static let dialog = "https://www.facebook.com/v19.0/dialog/oauth"
    /// Limited Login's issuers and keys.
    static let limitedIssuers = ["https://www.facebook.com", "https://limited.facebook.com"]
    static let limitedJWKS = "https://limited.facebook.com/.well-known/oauth/openid/jwks/"
    /// The `/me` fields read.
    static let fields = "id,name,email,first_name,last_name,picture"

    func credential(_ body: IdpPostBody, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential
    {
        if let idToken = body.idToken, !idToken.isEmpty {
            return try await limitedLogin(idToken, rawNonce: body.nonce, provider: provider, flow: flow)
        }
        guard let accessToken = body.accessToken, !accessToken.isEmpty else {
            throw AuthError.invalidCredentialOrProviderID.with(
                detail: "Invalid IdP response/credential: send Facebook's access_token (or a Limited Login id_token) for facebook.com.")
        }
        return try await checked(accessToken: accessToken, provider: provider, flow: flow)
    }

    func webFlow(for provider: IdentityProviderConfig, customParameters: [(String, String)], state: inout RedirectState, keys: ProviderKeys)
        -> ProviderEndpoints?
    { endpoints(keys) }

    func redirectCredential(code: String, state: RedirectState, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential
    {
        let answer = try await flow.redeem(
            code: code, verifier: state.codeVerifier, requestUri: requestUri, provider: provider, at: endpoints(flow.keys))
        guard let accessToken = answer["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw AuthError.invalidIdpResponse("Facebook answered no access token for the code.")
        }
        return try await checked(accessToken: accessToken, provider: provider, flow: flow)
    }

    func federatedID(rawID: String) -> String { "http://facebook.com/\(rawID)" }

    /// The login dialog and the code exchange (`client_secret` in the form).
    private func endpoints(_ keys: ProviderKeys) -> ProviderEndpoints {
        ProviderEndpoints(
            authorization: keys.address(Self.dialog, provider: providerID),
            token: keys.address("\(Self.graph)/oauth/access_token", provider: providerID),
            secretInForm: true, defaultScopes: ["email", "public_profile"], languageParameter: "locale")
    }

    /// An access token: `debug_token` says it is valid and this app's, then `/me` is its user's profile.
    private func checked(accessToken: String, provider: IdentityProviderConfig, flow: FederatedSignIn) async throws(AuthError)
        -> ProviderCredential
    {
        guard let appID = provider.clientID, !appID.isEmpty, let secret = flow.clientSecret(for: provider) else {
            throw AuthError.invalidIdpResponse("facebook.com needs the app ID (clientId) and app secret (clientSecret) to check access tokens.")
        }
        let keys = flow.keys
        let debugQuery = URLQuery.encode([("input_token", accessToken), ("access_token", "\(appID)|\(secret)")])
        guard let debug = await keys.getJSON(keys.address("\(Self.graph)/debug_token", provider: providerID) + "?" + debugQuery) else {
            throw AuthError.invalidIdpResponse("Facebook could not be reached to check the access token.")
        }
        guard debug.status == 200, let data = debug.json?["data"] else {
            throw AuthError.invalidIdpResponse("Facebook refused to check the access token\(Self.reason(debug.json?["error"])).")
        }
        guard data["is_valid"]?.boolValue == true else {
            throw AuthError.invalidIdpResponse("The Facebook access token is not valid\(Self.reason(data["error"])).")
        }
        guard data["app_id"]?.stringValue == appID else {
            throw AuthError.invalidIdpResponse("The Facebook access token was issued to another app.")
        }
        guard let userID = data["user_id"]?.stringValue, !userID.isEmpty else {
            throw AuthError.invalidIdpResponse("The Facebook access token is not a user's.")
        }
        let meQuery = URLQuery.encode([("fields", Self.fields), ("appsecret_proof", Self.appSecretProof(accessToken, secret: secret))])
        let meURL = keys.address("\(Self.graph)/me", provider: providerID) + "?" + meQuery
        guard let me = await keys.getJSON(meURL, bearer: accessToken) else {
            throw AuthError.invalidIdpResponse("Facebook could not be reached for the user's profile.")
        }
        guard me.status == 200, let user = me.json?.objectValue, user["id"]?.stringValue == userID else {
            throw AuthError.invalidIdpResponse("Facebook did not answer the user's profile\(Self.reason(me.json?["error"])).")
        }
        var claims: [String: JSONValue] = [
            "sub": .string(userID), "picture": .string("https://graph.facebook.com/\(userID)/picture"), "email_verified": false,
        ]
        (claims["email"], claims["name"]) = (user["email"], user["name"])
        (claims["given_name"], claims["family_name"]) = (user["first_name"], user["last_name"])
        return ProviderCredential(claims: user, profile: ProviderProfile(claims: claims), oauthAccessToken: accessToken)
    }

    /// A Limited Login ID token: Facebook's keys, issuer, the app ID as audience, and the nonce (its SHA-256, as the
    /// Facebook SDK is given it, or the raw value) required when the token has one.
    private func limitedLogin(_ idToken: String, rawNonce: String?, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential
    {
        let token = try await flow.verify(
            idToken: idToken, rawNonce: rawNonce, provider: provider, jwks: Self.limitedJWKS, nonceRule: .required,
            issuers: { _ in Self.limitedIssuers })
        var claims = token.claims
        claims["email_verified"] = nil
        return ProviderCredential(
            verified: token, idToken: idToken, accessToken: nil, rawNonce: rawNonce, profile: ProviderProfile(claims: claims))
    }

    /// `appsecret_proof`: the lower-case hex HMAC-SHA256 of the access token under the app secret.
    static func appSecretProof(_ accessToken: String, secret: String) -> String {
        Hex.encode(HMAC<SHA256>.authenticationCode(for: Array(accessToken.utf8), using: SymmetricKey(data: Array(secret.utf8))))
    }

    /// `: <message>` of a Graph API error object, or nothing.
    private static func reason(_ error: JSONValue?) -> String {
        error?["message"]?.stringValue.map { ": \($0)" } ?? ""
    }
}
