import FlintCore
import FlintStore

/// What an operator's test of a provider's web sign-in found: the identity the provider vouched for, and the account
/// that holds it, if any. The console starts the test through the hosted handler as an app's `signInWithRedirect`
/// does, then completes it with ``Flows/testProviderSignIn(requestUri:sessionID:)`` instead of `signInWithIdp`.
package struct ProviderSignInTest: Sendable, Equatable {
    /// The provider, as the sign-in's state names it.
    package var providerID: String
    /// The provider's user ID (`sub`, or the provider's own ID).
    package var rawID: String
    /// The email the provider gave, and whether it says it verified it.
    package var email: String?
    package var emailVerified: Bool
    package var displayName: String?
    /// The account holding this identity; `nil` when a real sign-in would create one (or link by a verified email).
    package var localID: String?
}

extension Flows {
    /// Completes a test sign-in the hosted handler ran: the callback link (`requestUri`) and the raw session ID are
    /// checked, the code exchanged and the provider's token verified exactly as `signInWithIdp` does for a redirect
    /// sign-in (``FederatedSignIn/redirectCredential(_:state:sessionID:provider:)``), and the credential's nonce is
    /// spent, so the link signs nobody in afterwards. No account is created, linked or signed in, no session is
    /// issued and no blocking function is called.
    /// - Throws: what `signInWithIdp` answers for the same link: `INVALID_IDP_RESPONSE` for a state that is not ours,
    ///   another session or a refused code, `OPERATION_NOT_ALLOWED` for a provider removed or disabled since the start.
    package func testProviderSignIn(requestUri: String, sessionID: String) async throws -> ProviderSignInTest {
        let now = node.clock.now()
        guard let state = try federated.redirectState(requestUri: requestUri, providerNamed: false, now: now) else {
            throw AuthError.invalidIdpResponse("The link is not a sign-in of this server's handler.")
        }
        guard let provider = node.config.current.identityProvider(state.providerID), provider.enabled else {
            throw AuthError.operationNotAllowed.with(detail: "The identity provider \(state.providerID) is not configured or is disabled.")
        }
        let proof = try await federated.redirectCredential(requestUri, state: state, sessionID: sessionID, provider: provider)
        let profile = proof.profile
        let key = FederatedIdentityKey(providerID: provider.providerID, rawID: profile.rawID)
        let nonce = proof.nonce.map { CounterKey.idpNonce(provider: provider.providerID, nonce: $0) }
        let holder = try await node.store.write { tx in
            if let nonce { _ = try await tx.incrementCounters([(nonce, Instant.epoch, now + FederatedSignIn.nonceMemory)]) }
            return try await tx.user(tenant: .scoped, federatedID: key)
        }
        return ProviderSignInTest(
            providerID: provider.providerID, rawID: profile.rawID, email: profile.email, emailVerified: profile.emailVerified,
            displayName: profile.displayName, localID: holder?.localID)
    }
}
