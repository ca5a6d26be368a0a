import FlintCore

/// `gc.apple.com`: Apple Game Center. Its players sign in through their own endpoint, `signInWithGameCenter`
/// (``GameCenterSignIn``), with GameKit's identity verification; the provider's entry in
/// `defaultSupportedIdpConfigs` only turns it on (it has no client ID or secret). `signInWithIdp` refuses it.
struct GameCenter: BuiltInProvider {
    static let providerID = "gc.apple.com"

    var providerID: String { Self.providerID }

    func credential(_ body: IdpPostBody, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential
    {
        throw AuthError.invalidIdpResponse("Game Center players sign in with accounts:signInWithGameCenter, not signInWithIdp.")
    }
}
