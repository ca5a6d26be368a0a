import FlintCore
import FlintStore

/// Federated sign-in (`accounts:signInWithIdp`): a provider's ID token verified against its published keys and the
/// project's provider config, then the account it signs in to, links to or creates, through the first-factor gate.
struct FederatedSignIn: Sendable {
    let node: Node
    let sessions: Sessions
    let gate: SignInGate
    let newAccounts: AccountCreationLimit
    let keys: ProviderKeys
    /// Seals and opens pending tokens (``IdpPendingToken``).
    let secret: ServerSecret

    /// Apple's and Google's `iss` values.
    static let issuers: [String: [String]] = [
        "apple.com": ["https://appleid.apple.com"],
        "google.com": ["https://accounts.google.com", "accounts.google.com"],
    ]

    /// Verifies the provider's ID token for `provider`: its keys (fetched again for an unknown `kid`), signature,
    /// issuer, audience, times and nonce.
    /// - Throws: `INVALID_IDP_RESPONSE` or `MISSING_OR_INVALID_NONCE` with what was wrong.
    func verify(idToken text: String, rawNonce: String?, provider: IdentityProviderConfig, nonceRule: ProviderNonceRule? = nil)
        async throws(AuthError) -> ProviderIDToken
    {
        let token: ProviderIDToken
        do { token = try ProviderIDToken(parsing: text) } catch { throw error.authError }
        let keySet = try await keys.keys(for: provider, kid: token.kid)
        let nonce = nonceRule ?? Self.nonceRule(for: provider.providerID)
        let issuers = Self.issuers[provider.providerID] ?? provider.issuer.map { [$0] } ?? []
        return try check(token, keys: keySet, issuers: issuers, audiences: provider.audiences, nonce: nonce, rawNonce: rawNonce)
    }

    /// Verifies a built-in provider's ID token (``BuiltInProvider``): its keys at `jwks` (the provider's address, or the
    /// same path at its stand-in), signature, times, audience (the configured client ID), nonce, and the issuer
    /// `issuers` accepts for the token's claims (Microsoft's depends on the token's tenant).
    /// - Throws: `INVALID_IDP_RESPONSE` or `MISSING_OR_INVALID_NONCE` with what was wrong.
    func verify(
        idToken text: String, rawNonce: String?, provider: IdentityProviderConfig, jwks: String, nonceRule: ProviderNonceRule = .whenSent,
        issuers: @Sendable ([String: JSONValue]) -> [String]
    ) async throws(AuthError) -> ProviderIDToken {
        let token: ProviderIDToken
        do { token = try ProviderIDToken(parsing: text) } catch { throw error.authError }
        let keySet = try await keys.keys(at: keys.address(jwks, provider: provider.providerID), kid: token.kid)
        return try check(
            token, keys: keySet, issuers: issuers(token.claims), audiences: provider.audiences, nonce: nonceRule, rawNonce: rawNonce)
    }

    private func check(
        _ token: ProviderIDToken, keys keySet: ProviderKeySet, issuers: [String], audiences: [String], nonce: ProviderNonceRule, rawNonce: String?
    ) throws(AuthError) -> ProviderIDToken {
        let expected = ProviderTokenExpectation(issuers: issuers, audiences: audiences, nonce: nonce)
        do { try token.verify(keys: keySet, expected: expected, rawNonce: rawNonce, now: node.clock.now()) } catch { throw error.authError }
        return token
    }

    /// How a provider's ID tokens carry the nonce: Apple's its SHA-256 hex; Google's one of its SDK's own unless the
    /// app sent one; an OIDC provider's the raw nonce or its hash, required when the token has one.
    static func nonceRule(for providerID: String) -> ProviderNonceRule {
        switch providerID {
        case "apple.com": .appleHashed
        case "google.com": .whenSent
        default: .required
        }
    }
}
