import FlintCore
import FlintSAML
import FlintStore
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A SAML provider's web sign-in through the hosted handler: the start sends the browser to the IdP with an
/// AuthnRequest (HTTP-Redirect binding) whose ID is derived from the sign-in's sealed state, which rides as
/// `RelayState`; the IdP posts `SAMLResponse` and `RelayState` back to the handler (HTTP-POST binding, the provider's
/// `spConfig.callbackUri`), which checks the response and sends the app or page the link that carries both to
/// `signInWithIdp`, where the response is verified again and its assertion spent. Nothing is stored.
extension FederatedRedirect {
    /// The IdP's URL for a sign-in whose state is `state`: the AuthnRequest with the ID the state derives, and the
    /// state sealed as `RelayState`; signed with the provider's SP key (``SAMLServiceProviderKeys``) when its IdP
    /// wants signed requests (`signRequest`).
    /// - Throws: ``Refusal`` when the state cannot be sealed, the SP key cannot be read or the request cannot be made.
    func samlLocation(_ provider: SAMLProvider, state: RedirectState) async throws(Refusal) -> String {
        let now = Date(timeIntervalSince1970: Double(flow.node.clock.now().millisecondsSince1970) / 1000)
        let request = SAMLAuthnRequest(
            serviceProvider: provider.serviceProvider, identityProvider: provider.identityProvider, issueInstant: now,
            id: state.samlRequestID(key: flow.secret.idpKey))
        let relayState = try seal(state)
        var signingKey: SAMLSigningKey?
        if provider.settings.signRequest {
            do {
                // A provider has a signing key from its creation on (or from the first start that knew SP keys).
                guard let pair = try await flow.node.samlSPKeys.signingKey(tenant: provider.tenant, providerID: provider.config.providerID)
                else { throw AuthError.internalError }
                signingKey = try SAMLSigningKey(pemRepresentation: pair.privateKeyPEM)
            } catch {
                flow.node.logger.error(
                    "SAML SP key unusable", metadata: ["provider": "\(provider.config.providerID)", "error": "\(type(of: error))"])
                throw Refusal(message: "The SAML sign-in could not be started: the request-signing key is not available.")
            }
        }
        do { return try request.redirectURL(identityProvider: provider.identityProvider, relayState: relayState, signingKey: signingKey) } catch {
            throw Refusal(message: "The SAML sign-in could not be started: \(error.description).", code: "auth/operation-not-allowed")
        }
    }

    /// Whether `providerID` names a SAML provider (`saml.*`).
    static func isSAML(_ providerID: String) -> Bool { ProjectConfig.IdpCollection.saml.accepts(providerID) }

    /// The IdP's callback, posted to the handler: the opened `RelayState` and the link `signInWithIdp` takes, or the
    /// IdP's refusal (the response is verified here for the page's sake; `signInWithIdp` verifies it again and spends
    /// it). A `createAuthUri` sign-in's link is its `continueUri` itself, with `SAMLResponse` and `RelayState` in its
    /// query (``Outcome/direct``).
    /// The response is checked with the provider of the tenant the sign-in started in (a tenant since removed or
    /// disabled: the app or page gets the refusal).
    /// - Throws: ``Refusal`` for a missing, forged or expired `RelayState`.
    func samlOutcome(_ fields: [String: String]) async throws(Refusal) -> Outcome {
        guard let relay = fields["RelayState"], !relay.isEmpty,
            let state = RedirectState(opening: relay, key: flow.secret.idpKey, now: flow.node.clock.now()), Self.isSAML(state.providerID)
        else { throw Refusal(message: "This sign-in is not valid or has expired. Go back to the app and start again.") }
        let response = fields["SAMLResponse"] ?? ""
        do throws(Refusal) {
            try await inTenant(state.tenant) { () async throws(Refusal) -> Void in
                do throws(AuthError) { _ = try flow.verifySAML(response, state: state, provider: try samlProvider(state.providerID)) } catch {
                    throw Refusal(message: error.detail ?? "The identity provider's response was refused.", code: "auth/invalid-credential")
                }
            }
        } catch {
            return Outcome(state: state, result: .failure(error))
        }
        let link = URLQuery.encode([("SAMLResponse", response), ("RelayState", relay)])
        if state.authType == Self.authURIType, case .web(let continueURI) = state.target {
            return Outcome(state: state, result: .success(continueURI + (continueURI.contains("?") ? "&" : "?") + link), direct: true)
        }
        return Outcome(state: state, result: .success(redirectURI + "?" + link))
    }

    /// The provider the sign-in names, in the request's tenant, in AuthError's terms (the verifier's caller answers them
    /// as refusals).
    private func samlProvider(_ providerID: String) throws(AuthError) -> SAMLProvider {
        do { return try flow.samlProvider(providerID) } catch {
            throw AuthError.operationNotAllowed.with(detail: "The identity provider \(providerID) is not configured or is disabled.")
        }
    }
}
