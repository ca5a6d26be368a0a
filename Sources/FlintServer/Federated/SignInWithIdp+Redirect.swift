import FlintCore

extension FederatedSignIn {
    /// The hosted handler's sign-in `requestUri` carries (the callback link: `<handler>?code=…&state=…`), for a request
    /// with no credential of its own; `nil` when the URI has no `state`, or when it is another callback and the
    /// request names its provider (an app's own code flow, whose code is read from `requestUri`).
    /// - Throws: `INVALID_REQUEST_URI` when the URI is not this node's handler and no provider is named;
    ///   `INVALID_IDP_RESPONSE` for a state that is not ours or has expired.
    func redirectState(requestUri: String, providerNamed: Bool, now: Instant) throws(AuthError) -> RedirectState? {
        guard let text = Self.queryValue("state", in: requestUri), !text.isEmpty else { return nil }
        let handler = node.settings.publicBaseURL + FederatedRedirect.handlerPath
        guard requestUri.hasPrefix(handler + "?") else {
            if providerNamed { return nil }
            throw AuthError.invalidRequestURI.with(detail: "The requestUri is not this server's sign-in handler (\(handler)).")
        }
        guard let state = RedirectState(opening: text, key: secret.idpKey, now: now) else {
            throw AuthError.invalidIdpResponse("The sign-in's state is not valid or has expired; start the sign-in again.")
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
