import FlintCore

/// A built-in provider other than Google, Apple and generic OIDC issuers (which ``FederatedSignIn`` verifies itself):
/// how Flint checks the credentials its SDKs send and runs its web flow. One type per provider, in
/// `Federated/Providers/<Name>.swift`, listed once in ``BuiltInProviders/all``.
///
/// Every outgoing call goes through ``ProviderKeys`` (`getJSON`, `postForm`, `send`): its addresses are the
/// provider's own, or the same paths at the provider's dev-mode stand-in (`--idp-stand-in PROVIDER=ORIGIN`), and
/// a provider that cannot be reached fails within ``ProviderKeys/requestTimeout``.
protocol BuiltInProvider: Sendable {
    /// `facebook.com`, `github.com`…
    var providerID: String { get }

    /// Verifies the credential a `signInWithIdp` request carries (`postBody`, or the provider's parameters on
    /// `requestUri`) for the configured `provider`.
    /// - Throws: `INVALID_IDP_RESPONSE` with what was wrong (an expired or revoked token, another app's token, an
    ///   unreachable provider), `INVALID_CREDENTIAL_OR_PROVIDER_ID` for a body without a credential.
    func credential(_ body: IdpPostBody, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential

    /// The hosted handler's start: the endpoints the authorization request goes to (the standard OAuth 2 request is
    /// built from them, with the app's scopes and custom parameters), after putting in `state` what the callback
    /// will need (``RedirectState/providerData``); `nil` when Flint runs no web flow for the provider.
    func webFlow(for provider: IdentityProviderConfig, customParameters: [(String, String)], state: inout RedirectState, keys: ProviderKeys)
        -> ProviderEndpoints?

    /// Completes the hosted handler's web flow: the callback's `code`, exchanged with the state's PKCE verifier (for
    /// providers that take one) at the provider's token endpoint, then verified as a credential.
    func redirectCredential(code: String, state: RedirectState, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential

    /// The endpoints of an OAuth 1.0a web flow (Twitter's), which the hosted handler runs instead of OAuth 2's
    /// (``FederatedRedirect/startOAuth1(_:state:request:clientID:secret:)``): a request token for the handler's
    /// callback, the user's authorization, then the access token, verified by ``credential(_:requestUri:provider:flow:)``
    /// as an app's own would be; `nil` for providers whose web flow is OAuth 2's.
    func oauth1Endpoints(keys: ProviderKeys) -> OAuth1Endpoints?

    /// `federatedId` for the provider's user ID, as Firebase answers it.
    func federatedID(rawID: String) -> String
}

extension BuiltInProvider {
    func webFlow(for provider: IdentityProviderConfig, customParameters: [(String, String)], state: inout RedirectState, keys: ProviderKeys)
        -> ProviderEndpoints?
    { nil }

    func redirectCredential(code: String, state: RedirectState, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential
    {
        throw AuthError.invalidIdpResponse("Flint runs no web sign-in for \(providerID); sign in with the provider's SDK and send its credential.")
    }

    func oauth1Endpoints(keys: ProviderKeys) -> OAuth1Endpoints? { nil }

    func federatedID(rawID: String) -> String { rawID }
}

/// The built-in providers beyond Google, Apple and OIDC, by provider ID.
enum BuiltInProviders {
    /// Every one Flint serves.
    static let all: [any BuiltInProvider] = [Microsoft(), Yahoo(), Twitter(), GameCenter()]

    private static let byID: [String: any BuiltInProvider] = Dictionary(uniqueKeysWithValues: all.map { ($0.providerID, $0) })

    /// The provider `providerID` names, if it is one of ``all``.
    static func named(_ providerID: String) -> (any BuiltInProvider)? { byID[providerID] }
}
