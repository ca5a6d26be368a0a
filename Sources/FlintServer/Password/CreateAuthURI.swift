import FlintCore
import FlintStore
import Hummingbird

/// `accounts:createAuthUri` (v1) and `relyingparty/createAuthUri` (v3): which sign-in methods an email has
/// (`fetchSignInMethods(forEmail:)`): `password`, `emailLink`, and the federated providers of the one account the
/// email names — the account with that email, or else the account holding an identity whose provider gave it (Google,
/// Apple…): all of that account's methods, never `phone`. With email-enumeration protection on, it reveals nothing.
struct CreateAuthURIRequest: Decodable {
    /// The providers whose methods this endpoint reports.
    static let servedProviders: Set<String> = ["password", "emailLink"]

    var identifier: String?
    var continueUri: String?
    var sessionId: String?

    /// A federated provider: the answer is its authorization URL (`authUri`) back to `continueUri`
    /// (``FederatedRedirect/authURI(providerID:continueURI:sessionID:scopes:customParameters:)``).
    var providerId: String?
    /// The scopes asked for besides the provider's defaults (comma- or space-separated).
    var oauthScope: String?
    /// Parameters added to the provider's authorization request.
    var customParameter: [String: String]?

    /// `continueUri`, which both kinds of request need.
    /// - Throws: `MISSING_CONTINUE_URI` (none or empty), `INVALID_CONTINUE_URI` (not a URL).
    func checkedContinueURI() throws(AuthError) -> String {
        guard let continueUri, !continueUri.isEmpty else { throw AuthError.missingContinueURI }
        guard ContinueURL(continueUri) != nil else { throw AuthError.invalidContinueURI }
        return continueUri
    }
}

struct CreateAuthURIResponse: ResponseEncodable {
    var kind = "identitytoolkit#CreateAuthUriResponse"
    var registered: Bool?
    var allProviders: [String]?
    var signinMethods: [String]?
    /// With a federated `providerId`: where the app sends the user.
    var authUri: String?
    var providerId: String?
    var sessionId: String
}

extension PasswordRoutes {
    func createAuthURI(_ request: Request, context: FlintRequestContext) async throws -> CreateAuthURIResponse {
        let wire = try await context.clientBody(request, as: CreateAuthURIRequest.self)
        if let provider = wire.providerId, !provider.isEmpty, !CreateAuthURIRequest.servedProviders.contains(provider) {
            let continueUri = try wire.checkedContinueURI()
            let sessionId = wire.sessionId ?? flow.node.random.alphanumericID(length: 27)
            let scopes = (wire.oauthScope ?? "").split { $0 == "," || $0 == " " }.map(String.init)
            let parameters = (wire.customParameter ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            let authUri = try await redirect.authURI(
                providerID: provider, continueURI: continueUri, sessionID: sessionId, scopes: scopes, customParameters: parameters)
            return CreateAuthURIResponse(authUri: authUri, providerId: provider, sessionId: sessionId)
        }
        return try await flow.createAuthURI(wire)
    }
}

extension PasswordFlow {
    func createAuthURI(_ wire: CreateAuthURIRequest) async throws -> CreateAuthURIResponse {
        guard let identifier = wire.identifier else { throw AuthError.missingIdentifier }
        _ = try wire.checkedContinueURI()
        guard let email = EmailAddress.normalize(identifier) else { throw AuthError.invalidIdentifier }
        let sessionId = wire.sessionId ?? node.random.alphanumericID(length: 27)
        if node.config.current.improvedEmailPrivacy { return CreateAuthURIResponse(sessionId: sessionId) }
        // The account with the email, or else the account of the first identity whose provider gave that email;
        // that one account's methods are listed, all of them, as Firebase does with one account per email.
        let found = try await node.store.read { r in
            try await Self.account(email: email, in: r)
        }
        guard let (user, identities) = found else {
            return CreateAuthURIResponse(registered: false, allProviders: [], signinMethods: [], sessionId: sessionId)
        }
        var methods: [String] = []
        if user.passwordHash != nil { methods.append("password") }
        if user.emailLinkSignIn { methods.append("emailLink") }
        var providers = methods.isEmpty ? [] : ["password"]
        // A federated provider is both a provider and a sign-in method, as Firebase lists them (once each).
        for provider in identities.map(\.providerID) where !providers.contains(provider) {
            providers.append(provider)
            methods.append(provider)
        }
        return CreateAuthURIResponse(
            registered: true, allProviders: providers, signinMethods: methods, sessionId: sessionId)
    }

    /// The account with the email, or else the account of the first identity whose provider gave that email, with its
    /// federated identities.
    private static func account(email: String, in r: some Reads) async throws -> (UserRecord, [FederatedIdentityRecord])? {
        var user = try await r.user(tenant: .scoped, email: email)
        if user == nil, let holder = try await r.federatedIdentities(tenant: .scoped, email: email).first {
            user = try await r.user(tenant: .scoped, localID: holder.localID)
        }
        guard let user else { return nil }
        return (user, try await r.federatedIdentities(tenant: .scoped, localID: user.localID))
    }
}
