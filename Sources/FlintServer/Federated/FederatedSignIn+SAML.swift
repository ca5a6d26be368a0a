import FlintCore
import FlintSAML
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A configured, enabled SAML provider (`inboundSamlConfigs`) as the sign-in uses it: FlintSAML's descriptions of the
/// two sides, read from its `idpConfig` and `spConfig`.
struct SAMLProvider: Sendable {
    let config: IdentityProviderConfig
    let settings: SAMLProviderSettings
    /// The tenant whose provider it is, which keys its SP key pair (``SAMLServiceProviderKeys``).
    let tenant: TenantID

    /// This side: the SP entity ID and the ACS URL (`spConfig.callbackUri`), the Audience and Recipient responses name.
    var serviceProvider: SAMLServiceProvider {
        SAMLServiceProvider(entityID: settings.spEntityID, assertionConsumerServiceURL: settings.callbackURI)
    }

    /// The IdP: its entity ID, SSO URL and certificates, the only keys its responses are verified with.
    var identityProvider: SAMLIdentityProvider {
        SAMLIdentityProvider(
            entityID: settings.idpEntityID, singleSignOnURL: settings.ssoURL, certificates: settings.certificates,
            signRequest: settings.signRequest)
    }
}

/// What a SAML sign-in's `signInWithIdp` carries, in `postBody` or on the `requestUri` (the hosted handler's link):
/// the IdP's `SAMLResponse` and the `RelayState` the start sealed, opened.
struct SAMLCallback: Sendable {
    let state: RedirectState
    let response: String
}

extension FederatedSignIn {
    /// The clock skew allowed for each time bound of a response.
    static let samlClockSkew: Duration = .seconds(120)

    /// The SAML provider `providerID` of the request's tenant (``TenantScope``: the tenant's own `inboundSamlConfigs`
    /// in a tenant, the project's otherwise), the one lookup of the SAML flow.
    /// - Throws: ``FederatedRedirect/ProviderUnusable``: not a configured SAML provider, or disabled.
    func samlProvider(_ providerID: String) throws(FederatedRedirect.ProviderUnusable) -> SAMLProvider {
        guard let provider = node.config.current.identityProvider(providerID), let settings = provider.saml else {
            throw .notConfigured
        }
        guard provider.enabled else { throw .disabled }
        return SAMLProvider(config: provider, settings: settings, tenant: .scoped)
    }

    /// Verifies a posted SAMLResponse for the sign-in `state` started: signed by one of the provider's certificates,
    /// answering the AuthnRequest that state derived (``RedirectState/samlRequestID(key:)``), within its time bounds
    /// (``samlClockSkew``), for this SP.
    /// - Throws: `INVALID_IDP_RESPONSE` with the verifier's reason, for everything it refuses.
    func verifySAML(_ response: String, state: RedirectState, provider: SAMLProvider) throws(AuthError) -> SAMLAssertion {
        let verifier = SAMLResponseVerifier(
            serviceProvider: provider.serviceProvider, identityProvider: provider.identityProvider, clockSkew: Self.samlClockSkew)
        let now = Date(timeIntervalSince1970: Double(node.clock.now().millisecondsSince1970) / 1000)
        do {
            return try verifier.verify(encodedResponse: response, expectedRequestID: state.samlRequestID(key: secret.idpKey), now: now)
        } catch {
            throw AuthError.invalidIdpResponse("The SAML response was refused: \(error.description).")
        }
    }

    /// The SAML response and opened RelayState a `signInWithIdp` carries, in its `postBody` or on its `requestUri`;
    /// `nil` when it carries no `SAMLResponse`.
    /// - Throws: `INVALID_IDP_RESPONSE` for a missing, forged or expired RelayState, or one of another tenant.
    func samlCallback(postBody: String?, requestUri: String, now: Instant) throws(AuthError) -> SAMLCallback? {
        let form = FormDecoding.decode(postBody ?? "")
        guard let response = form["SAMLResponse"] ?? Self.queryValue("SAMLResponse", in: requestUri), !response.isEmpty else {
            return nil
        }
        guard let relay = form["RelayState"] ?? Self.queryValue("RelayState", in: requestUri), !relay.isEmpty,
            let state = RedirectState(opening: relay, key: secret.idpKey, now: now)
        else { throw AuthError.invalidIdpResponse("The SAML RelayState is not valid or has expired; start the sign-in again.") }
        return SAMLCallback(state: try Self.inScope(state), response: response)
    }

    /// Completes a SAML sign-in: the session ID must be the one the start sealed, then the response is verified for
    /// that start. The assertion's ID becomes the credential's nonce, spent in the sign-in's transaction until it
    /// expires, so a response signs in once.
    /// - Throws: `INVALID_IDP_RESPONSE` for another session or a refused response; `OPERATION_NOT_ALLOWED` when the
    ///   provider was removed or disabled since the start.
    func samlCredential(_ callback: SAMLCallback, sessionID: String?) throws(AuthError) -> ProviderCredential {
        guard callback.state.matches(sessionID: sessionID) else {
            throw AuthError.invalidIdpResponse("The sessionId is not the one the sign-in started with.")
        }
        let provider: SAMLProvider
        do { provider = try samlProvider(callback.state.providerID) } catch {
            throw AuthError.operationNotAllowed.with(detail: "The identity provider configuration is not found or is disabled.")
        }
        let assertion = try verifySAML(callback.response, state: callback.state, provider: provider)
        return Self.credential(of: assertion)
    }

    /// What a verified assertion proves: the NameID as the user's ID; the email from a NameID of the emailAddress
    /// format or the `email` / `mail` attribute (unverified: an IdP's say-so never takes over an account of that
    /// address); the display name from `displayName` or `name`; every attribute as `rawUserInfo` and the ID token's
    /// `firebase.sign_in_attributes`.
    static func credential(of assertion: SAMLAssertion) -> ProviderCredential {
        let attributes = samlAttributes(assertion.attributes)
        let first: ([String]) -> String? = { names in names.lazy.compactMap { assertion.attributes[$0]?.first }.first { !$0.isEmpty } }
        let emailFormat = assertion.nameIDFormat?.hasSuffix(":nameid-format:emailAddress") == true
        var profileClaims: [String: JSONValue] = ["sub": .string(assertion.nameID)]
        if let email = emailFormat ? assertion.nameID : first(SAMLAttributeNames.email), EmailAddress.normalize(email) != nil {
            profileClaims["email"] = .string(email)
        }
        if let name = first(SAMLAttributeNames.displayName) { profileClaims["name"] = .string(name) }
        if let given = first(SAMLAttributeNames.givenName) { profileClaims["given_name"] = .string(given) }
        if let family = first(SAMLAttributeNames.familyName) { profileClaims["family_name"] = .string(family) }
        var proof = ProviderCredential(claims: attributes, profile: ProviderProfile(claims: profileClaims))
        proof.nonce = assertion.id
        proof.nonceUntil = Instant(millisecondsSince1970: Int64(assertion.notOnOrAfter.timeIntervalSince1970 * 1000)) + samlClockSkew
        proof.signInAttributes = attributes
        proof.replayError = AuthError.invalidIdpResponse("The SAML assertion was used already; start the sign-in again.")
        return proof
    }

    /// Attributes as JSON: a name's one value as a string, several as a list of strings.
    static func samlAttributes(_ attributes: [String: [String]]) -> [String: JSONValue] {
        attributes.mapValues { values in values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string)) }
    }
}

/// The attribute names a profile field is read from, first found wins: the plain names, the LDAP / eduPerson OIDs
/// (`urn:oid:…`, as Shibboleth and pysaml2 name them) and the WS-Federation claim URIs (ADFS, Microsoft Entra ID).
enum SAMLAttributeNames {
    static let email = [
        "email", "mail", "urn:oid:0.9.2342.19200300.100.1.3", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
    ]
    static let displayName = [
        "displayName", "name", "urn:oid:2.16.840.1.113730.3.1.241", "http://schemas.microsoft.com/identity/claims/displayname",
        "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name",
    ]
    static let givenName = ["firstName", "givenName", "urn:oid:2.5.4.42", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname"]
    static let familyName = [
        "lastName", "surname", "sn", "urn:oid:2.5.4.4", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname",
    ]
}
