import FlintCore
import FlintStore

extension FederatedSignIn {
    /// The hosted handler's sign-in `requestUri` carries (the callback link: `<handler>?code=…&state=…`), for a request
    /// with no credential of its own; `nil` when the URI has no `state`, or when it is another callback and the
    /// request names its provider (an app's own code flow, whose code is read from `requestUri`).
    /// - Throws: `INVALID_REQUEST_URI` when the URI is not this node's handler and no provider is named;
    ///   `INVALID_IDP_RESPONSE` for a state that is not ours, has expired or was started in another tenant.
    func redirectState(requestUri: String, providerNamed: Bool, now: Instant) throws(AuthError) -> RedirectState? {
        guard let text = Self.queryValue("state", in: requestUri), !text.isEmpty else { return nil }
        let handler = node.settings.publicBaseURL + FederatedRedirect.handlerPath
        guard requestUri.hasPrefix(handler + "?") else {
            // `createAuthUri`'s flow comes back to the app's own `continueUri`: the state is ours when it opens, was made
            // for that flow and that URI.
            if let state = RedirectState(opening: text, key: secret.idpKey, now: now), state.authType == FederatedRedirect.authURIType,
                case .web(let continueURI) = state.target, requestUri.hasPrefix(String(continueURI.prefix { $0 != "?" && $0 != "#" }))
            {
                return try Self.inScope(state)
            }
            if providerNamed { return nil }
            throw AuthError.invalidRequestURI.with(detail: "The requestUri is not this server's sign-in handler (\(handler)).")
        }
        guard let state = RedirectState(opening: text, key: secret.idpKey, now: now) else {
            throw AuthError.invalidIdpResponse("The sign-in's state is not valid or has expired; start the sign-in again.")
        }
        return try Self.inScope(state)
    }

    /// `state`, when it was started in the request's tenant (``TenantScope``): a callback completes in its own tenant
    /// only, so a response for one tenant never signs anyone in to another.
    /// - Throws: `INVALID_IDP_RESPONSE` for a state of another tenant.
    static func inScope(_ state: RedirectState) throws(AuthError) -> RedirectState {
        guard state.tenant == TenantID.scoped.rawValue else {
            throw AuthError.invalidIdpResponse("The sign-in was started in another tenant; complete it with that tenant's tenantId.")
        }
        return state
    }

    /// Completes a hosted-handler sign-in: the session ID must be the one the sign-in started with (its SHA-256 is in
    /// the state), the code is exchanged with the state's PKCE verifier, and the ID token must carry the state's
    /// nonce (an OAuth 1.0a provider's verifier is exchanged with the state's request token instead,
    /// ``oauth1Credential(_:state:legs:provider:builtIn:)``). The nonce is spent with the sign-in, so the link works once.
    /// - Throws: `INVALID_IDP_RESPONSE` for another session, a link without a code, or a code the provider refuses;
    ///   `MISSING_OR_INVALID_NONCE` for a token without the state's nonce.
    func redirectCredential(_ requestUri: String, state: RedirectState, sessionID: String?, provider: IdentityProviderConfig)
        async throws(AuthError) -> ProviderCredential
    {
        guard state.matches(sessionID: sessionID) else {
            throw AuthError.invalidIdpResponse("The sessionId is not the one the sign-in started with.")
        }
        let builtIn = BuiltInProviders.named(provider.providerID)
        if let builtIn, let legs = builtIn.oauth1Endpoints(keys: keys) {
            var proof = try await oauth1Credential(requestUri, state: state, legs: legs, provider: provider, builtIn: builtIn)
            proof.nonce = state.nonce
            return proof
        }
        guard let code = Self.queryValue("code", in: requestUri), !code.isEmpty else {
            throw AuthError.invalidIdpResponse("The requestUri has no authorization code.")
        }
        if let builtIn {
            var proof = try await builtIn.redirectCredential(code: code, state: state, requestUri: requestUri, provider: provider, flow: self)
            proof.nonce = state.nonce
            return proof
        }
        var proof = try await exchange(
            code: code, verifier: state.codeVerifier, nonce: state.nonce, requestUri: requestUri, provider: provider, nonceRule: .required)
        if let user = Self.queryValue("user", in: requestUri) {
            proof.profile = ProviderProfile(claims: proof.claims, appName: ProviderProfile.appName(fromUserJSON: user))
        }
        proof.nonce = state.nonce
        return proof
    }
}

extension FederatedSignIn {
    /// Completes an OAuth 1.0a web flow: the link's `oauth_token` must be the state's request token, whose secret signs
    /// the exchange of `oauth_verifier` for the access token and its secret at the provider, then verified by
    /// `builtIn` as an app's own credential.
    /// - Throws: `INVALID_IDP_RESPONSE` for a link of another sign-in, an unreachable provider, or a refused verifier.
    func oauth1Credential(
        _ requestUri: String, state: RedirectState, legs: OAuth1Endpoints, provider: IdentityProviderConfig, builtIn: any BuiltInProvider
    ) async throws(AuthError) -> ProviderCredential {
        let kept = state.providerData.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard kept.count == 2, let token = Self.queryValue("oauth_token", in: requestUri), token == kept[0],
            let verifier = Self.queryValue("oauth_verifier", in: requestUri), !verifier.isEmpty
        else { throw AuthError.invalidIdpResponse("The requestUri has no oauth_token and oauth_verifier of this sign-in.") }
        guard let clientID = provider.clientID, let secret = clientSecret(for: provider) else {
            throw AuthError.invalidIdpResponse("The web flow needs the provider's client ID and secret in the project config.")
        }
        let signer = OAuth1(consumerKey: clientID, consumerSecret: secret, token: token, tokenSecret: kept[1])
        let header = signer.authorization(
            method: "POST", url: legs.accessToken, oauth: [("oauth_verifier", verifier)], nonce: oauthNonce(), timestamp: oauthTimestamp())
        guard let answer = await keys.postForm(legs.accessToken, [], headers: [("Authorization", header)]) else {
            throw AuthError.invalidIdpResponse("The provider's access token endpoint could not be reached.")
        }
        let fields = FormDecoding.decode(String(decoding: answer.body, as: UTF8.self))
        guard answer.status == 200, let access = fields["oauth_token"], !access.isEmpty, let accessSecret = fields["oauth_token_secret"] else {
            throw AuthError.invalidIdpResponse("The provider refused the verifier (\(OAuth1.reason(answer))).")
        }
        var body = IdpPostBody(parsing: "")
        (body.providerID, body.accessToken, body.oauthTokenSecret) = (provider.providerID, access, accessSecret)
        return try await builtIn.credential(body, requestUri: requestUri, provider: provider, flow: self)
    }

    /// A fresh OAuth 1.0a nonce from the node's random source.
    func oauthNonce() -> String { Hex.encode(node.random.bytes(16)) }

    /// The node's clock in whole seconds, OAuth 1.0a's timestamp.
    func oauthTimestamp() -> Int64 { node.clock.now().millisecondsSince1970 / 1000 }
}
