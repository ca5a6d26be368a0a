import FlintCore
import FlintStore

/// `createAuthUri` with a `providerId` (the Android SDK's and older clients' generic-IdP flow): the provider's
/// authorization URL going back to the app's `continueUri`, with the sign-in's state sealed in `state` for the
/// request's `sessionId`; the app then sends the callback URL to `signInWithIdp` as `requestUri` with the same
/// `sessionId` (``FederatedSignIn/redirectState(requestUri:providerNamed:now:)``).
extension FederatedRedirect {
    /// The `authType` a `createAuthUri` state carries: its callback is the app's own URL, not the handler.
    static let authURIType = "createAuthUri"

    /// The provider's authorization URL for `providerID`, back to `continueURI`.
    /// - Throws: `INVALID_PROVIDER_ID` (not a configured provider), `OPERATION_NOT_ALLOWED` (disabled, no client secret,
    ///   or no OAuth 2 web flow), then `UNAUTHORIZED_DOMAIN` (`continueURI` off the authorized domains),
    ///   `INVALID_IDP_RESPONSE` (the provider's endpoints cannot be had).
    func authURI(
        providerID: String, continueURI: String, sessionID: String, scopes: [String], customParameters: [(String, String)]
    ) async throws(AuthError) -> String {
        let config = flow.node.config.current
        if Self.isSAML(providerID) {
            return try await samlAuthURI(providerID: providerID, continueURI: continueURI, sessionID: sessionID, config: config)
        }
        let (provider, clientID): (IdentityProviderConfig, String)
        do { (provider, clientID, _) = try webProvider(providerID, in: config) } catch {
            switch error {
            case .notConfigured: throw AuthError.invalidProviderID
            case .disabled: throw AuthError.operationNotAllowed.with(detail: "The identity provider configuration is disabled.")
            case .noClientSecret:
                throw AuthError.operationNotAllowed.with(detail: "The identity provider \(providerID) has no client ID and secret for the web flow.")
            }
        }
        guard let url = ContinueURL(continueURI), url.isAuthorized(by: config.authorizedDomains) else { throw AuthError.unauthorizedDomain }
        var state = authURIState(providerID: providerID, continueURI: continueURI, sessionID: sessionID)
        let endpoints: ProviderEndpoints
        if let builtIn = BuiltInProviders.named(providerID) {
            guard builtIn.oauth1Endpoints(keys: flow.keys) == nil,
                let own = builtIn.webFlow(for: provider, customParameters: customParameters, state: &state, keys: flow.keys)
            else { throw AuthError.operationNotAllowed.with(detail: "Flint runs no OAuth 2 web sign-in for \(providerID).") }
            endpoints = own
        } else {
            endpoints = try await flow.endpoints(for: provider)
        }
        do {
            return try authorizationURL(
                endpoints, clientID: clientID, state: state, redirectURI: continueURI, scopes: scopes, customParameters: customParameters,
                language: nil)
        } catch {
            throw AuthError.internalError
        }
    }

    /// A SAML provider's `authUri`: the IdP's URL with the AuthnRequest and the sealed state as `RelayState`; the IdP
    /// posts to the handler, which sends the browser to `continueURI` with `SAMLResponse` and `RelayState`
    /// (``samlOutcome(_:)``), the `requestUri` the app sends to `signInWithIdp` with the same `sessionId`.
    /// - Throws: `INVALID_PROVIDER_ID` (not configured), `OPERATION_NOT_ALLOWED` (disabled, or the request could not be
    ///   made), `UNAUTHORIZED_DOMAIN`.
    private func samlAuthURI(providerID: String, continueURI: String, sessionID: String, config: ProjectConfig) async throws(AuthError) -> String {
        let provider: SAMLProvider
        do { provider = try flow.samlProvider(providerID) } catch {
            switch error {
            case .notConfigured: throw AuthError.invalidProviderID
            case .disabled, .noClientSecret: throw AuthError.operationNotAllowed.with(detail: "The identity provider configuration is disabled.")
            }
        }
        guard let url = ContinueURL(continueURI), url.isAuthorized(by: config.authorizedDomains) else { throw AuthError.unauthorizedDomain }
        let state = authURIState(providerID: providerID, continueURI: continueURI, sessionID: sessionID)
        do { return try await samlLocation(provider, state: state) } catch {
            throw AuthError.operationNotAllowed.with(detail: error.message)
        }
    }

    /// The state of a `createAuthUri` sign-in (in the request's tenant): back to `continueURI`, for `sessionID`.
    private func authURIState(providerID: String, continueURI: String, sessionID: String) -> RedirectState {
        newState(
            providerID: providerID, sessionHash: ProviderNonceRule.sha256Hex(sessionID), eventID: "", authType: Self.authURIType,
            target: .web(redirectURL: continueURI))
    }
}
