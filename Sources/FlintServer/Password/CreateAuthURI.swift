import FlintCore
import FlintStore
import Hummingbird

/// `accounts:createAuthUri` (v1) and `relyingparty/createAuthUri` (v3): which sign-in methods an email has
/// (`fetchSignInMethods(forEmail:)`): `password`, `emailLink`, and the federated providers of the account with that
/// email and of the identities whose provider gave that email (Google, Apple…). With email-enumeration protection on, it reveals nothing.
struct CreateAuthURIRequest: Decodable {
    /// The providers whose methods this endpoint reports.
    static let servedProviders: Set<String> = ["password", "emailLink"]

    var identifier: String?
    var continueUri: String?
    var sessionId: String?

    /// Flint serves no identity provider: asking for one's sign-in URL is Firebase's answer to an unknown provider.
    var providerId: String?
}

struct CreateAuthURIResponse: ResponseEncodable {
    var kind = "identitytoolkit#CreateAuthUriResponse"
    var registered: Bool?
    var allProviders: [String]?
    var signinMethods: [String]?
    var sessionId: String
}

extension PasswordRoutes {
    func createAuthURI(_ request: Request, context: FlintRequestContext) async throws -> CreateAuthURIResponse {
        let wire = try await context.clientBody(request, as: CreateAuthURIRequest.self)
        if let provider = wire.providerId, !provider.isEmpty, !CreateAuthURIRequest.servedProviders.contains(provider) {
            throw AuthError.invalidProviderID
        }
        return try await flow.createAuthURI(wire)
    }
}

extension PasswordFlow {
    func createAuthURI(_ wire: CreateAuthURIRequest) async throws -> CreateAuthURIResponse {
        guard let identifier = wire.identifier else { throw AuthError.missingIdentifier }
        guard let continueUri = wire.continueUri, !continueUri.isEmpty else { throw AuthError.missingContinueURI }
        guard let email = EmailAddress.normalize(identifier) else { throw AuthError.invalidIdentifier }
        guard ContinueURL(continueUri) != nil else { throw AuthError.invalidContinueURI }
        let sessionId = wire.sessionId ?? node.random.alphanumericID(length: 27)
        if node.config.current.improvedEmailPrivacy { return CreateAuthURIResponse(sessionId: sessionId) }
        // The account with the email, and the identities whose provider gave it (on that account or others).
        let (user, identities) = try await node.store.read { r -> (UserRecord?, [FederatedIdentityRecord]) in
            let user = try await r.user(email: email)
            var identities: [FederatedIdentityRecord] = []
            if let user { identities = try await r.federatedIdentities(localID: user.localID) }
            return (user, identities + (try await r.federatedIdentities(email: email)))
        }
        var methods: [String] = []
        if user?.passwordHash != nil { methods.append("password") }
        if user?.emailLinkSignIn == true { methods.append("emailLink") }
        var providers = methods.isEmpty ? [] : ["password"]
        // A federated provider is both a provider and a sign-in method, as Firebase lists them (once each).
        for provider in identities.map(\.providerID) where !providers.contains(provider) {
            providers.append(provider)
            methods.append(provider)
        }
        return CreateAuthURIResponse(
            registered: user != nil || !identities.isEmpty, allProviders: providers, signinMethods: methods, sessionId: sessionId)
    }
}
