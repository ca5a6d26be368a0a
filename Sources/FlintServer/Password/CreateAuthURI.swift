import FlintCore
import FlintStore
import Hummingbird

/// `accounts:createAuthUri` (v1) and `relyingparty/createAuthUri` (v3): which sign-in methods an email has
/// (`fetchSignInMethods(forEmail:)`). With email-enumeration protection on, it reveals nothing.
struct CreateAuthURIRequest {
    /// The providers whose methods this endpoint reports.
    static let servedProviders: Set<String> = ["password", "emailLink"]

    var identifier: String?
    var continueUri: String?
    var sessionId: String?

    init(_ body: WireBody) throws(AuthError) {
        identifier = try body.string("identifier")
        continueUri = try body.string("continueUri")
        sessionId = try body.string("sessionId")
        // Flint serves no identity provider: asking for one's sign-in URL is Firebase's answer to an unknown provider.
        if let provider = try body.string("providerId"), !provider.isEmpty, !Self.servedProviders.contains(provider) {
            throw AuthError.invalidProviderID
        }
    }
}

struct CreateAuthURIResponse: Encodable {
    var kind = "identitytoolkit#CreateAuthUriResponse"
    var registered: Bool?
    var allProviders: [String]?
    var signinMethods: [String]?
    var sessionId: String
}

extension PasswordRoutes {
    func createAuthURI(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireClient()
        let wire = try CreateAuthURIRequest(try await WireBody.read(request))
        return try JSONReply.make(try await services.createAuthURI(wire))
    }
}

extension AuthServices {
    func createAuthURI(_ wire: CreateAuthURIRequest) async throws -> CreateAuthURIResponse {
        guard let identifier = wire.identifier else { throw AuthError.missingIdentifier }
        guard let continueUri = wire.continueUri, !continueUri.isEmpty else { throw AuthError.missingContinueURI }
        guard let email = EmailAddress.normalize(identifier) else { throw AuthError.invalidIdentifier }
        guard ContinueURL(continueUri) != nil else { throw AuthError.invalidContinueURI }
        let sessionId = wire.sessionId ?? random.alphanumericID(length: 27)
        if config.current.improvedEmailPrivacy { return CreateAuthURIResponse(sessionId: sessionId) }
        let user = try await store.read { try await $0.user(email: email) }
        var methods: [String] = []
        if user?.passwordHash != nil { methods.append("password") }
        if user?.emailLinkSignIn == true { methods.append("emailLink") }
        return CreateAuthURIResponse(
            registered: user != nil, allProviders: methods.isEmpty ? [] : ["password"], signinMethods: methods, sessionId: sessionId)
    }
}
