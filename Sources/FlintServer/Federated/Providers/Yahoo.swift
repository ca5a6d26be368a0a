import FlintCore

/// `yahoo.com`: OpenID Connect at Yahoo's fixed issuer. The app's ID token (with the access token beside it) is
/// verified against Yahoo's keys; the hosted handler's web flow redeems its code for one.
struct Yahoo: BuiltInProvider {
    var providerID: String { "yahoo.com" }

    static let issuer = "https://api.login.yahoo.com"
    static let jwks = "https://api.login.yahoo.com/openid/v1/certs"
    static let authorization = "https://api.login.yahoo.com/oauth2/request_auth"
    static let token = "https://api.login.yahoo.com/oauth2/get_token"

    func credential(_ body: IdpPostBody, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential
    {
        guard let idToken = body.idToken, !idToken.isEmpty else {
            throw AuthError.invalidIdpResponse("Send Yahoo's id_token (with its access_token) for yahoo.com.")
        }
        return try await verified(idToken, accessToken: body.accessToken, rawNonce: body.nonce, nonceRule: .required, provider: provider, flow: flow)
    }

    func webFlow(for provider: IdentityProviderConfig, customParameters: [(String, String)], state: inout RedirectState, keys: ProviderKeys)
        -> ProviderEndpoints?
    { endpoints(keys) }

    private func endpoints(_ keys: ProviderKeys) -> ProviderEndpoints {
        ProviderEndpoints(
            authorization: keys.address(Self.authorization, provider: providerID), token: keys.address(Self.token, provider: providerID),
            secretInForm: false, defaultScopes: ["openid"], languageParameter: "language")
    }

    func redirectCredential(code: String, state: RedirectState, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential
    {
        let answer = try await flow.redeem(
            code: code, verifier: state.codeVerifier, requestUri: requestUri, provider: provider, at: endpoints(flow.keys))
        guard let idToken = answer["id_token"]?.stringValue else { throw AuthError.invalidIdpResponse("Yahoo answered no ID token.") }
        return try await verified(
            idToken, accessToken: answer["access_token"]?.stringValue, rawNonce: state.nonce, nonceRule: .required, provider: provider, flow: flow)
    }

    private func verified(
        _ idToken: String, accessToken: String?, rawNonce: String?, nonceRule: ProviderNonceRule, provider: IdentityProviderConfig,
        flow: FederatedSignIn
    ) async throws(AuthError) -> ProviderCredential {
        let token = try await flow.verify(
            idToken: idToken, rawNonce: rawNonce, provider: provider, jwks: Self.jwks, nonceRule: nonceRule, issuers: { _ in [Self.issuer] })
        return ProviderCredential(verified: token, idToken: idToken, accessToken: accessToken, rawNonce: rawNonce)
    }
}
