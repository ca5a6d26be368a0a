import FlintCore
import Logging

/// Where a provider's authorization-code flow goes: its authorization and token endpoints, how the client
/// authenticates at the token endpoint, its default scopes, and whether its callback is a form post (Apple).
struct ProviderEndpoints: Sendable {
    var authorization: String
    var token: String
    /// Whether the client secret goes in the form (`client_secret_post`) rather than HTTP Basic.
    var secretInForm: Bool
    var defaultScopes: [String]
    /// `response_mode=form_post`: Apple posts the callback when names or emails are asked for.
    var formPost: Bool = false
    /// The query parameter naming the user's language.
    var languageParameter = "ui_locales"

    /// The scopes asked for: the defaults, then the app's, each once, space-separated.
    func scope(adding scopes: [String]) -> String {
        var out: [String] = []
        for scope in defaultScopes + scopes where !out.contains(scope) { out.append(scope) }
        return out.joined(separator: " ")
    }
}

extension FederatedSignIn {
    /// Google's and Apple's OAuth endpoints.
    static let googleAuthorization = "https://accounts.google.com/o/oauth2/v2/auth"
    static let googleToken = "https://oauth2.googleapis.com/token"
    static let appleAuthorization = "https://appleid.apple.com/auth/authorize"
    static let appleToken = "https://appleid.apple.com/auth/token"

    /// The endpoints of `provider`: Google's and Apple's own (or their dev-mode stand-in's), an OIDC issuer's from its
    /// discovery document. (A ``BuiltInProvider`` names its own, ``BuiltInProvider/webFlow(for:customParameters:state:keys:)``.)
    /// - Throws: `INVALID_IDP_RESPONSE` when the discovery document names no authorization or token endpoint.
    func endpoints(for provider: IdentityProviderConfig) async throws(AuthError) -> ProviderEndpoints {
        switch provider.providerID {
        case "google.com":
            return ProviderEndpoints(
                authorization: keys.address(Self.googleAuthorization, provider: provider.providerID),
                token: keys.address(Self.googleToken, provider: provider.providerID), secretInForm: false,
                defaultScopes: ["openid", "email", "profile"], languageParameter: "hl")
        case "apple.com":
            return ProviderEndpoints(
                authorization: keys.address(Self.appleAuthorization, provider: provider.providerID),
                token: keys.address(Self.appleToken, provider: provider.providerID), secretInForm: true, defaultScopes: ["name", "email"],
                formPost: true, languageParameter: "locale")
        default:
            guard let discovery = try await keys.discovery(for: provider), let token = discovery["token_endpoint"]?.stringValue else {
                throw AuthError.invalidIdpResponse("The issuer's discovery document has no token_endpoint.")
            }
            guard let authorization = discovery["authorization_endpoint"]?.stringValue else {
                throw AuthError.invalidIdpResponse("The issuer's discovery document has no authorization_endpoint.")
            }
            let methods = discovery["token_endpoint_auth_methods_supported"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let inForm = methods.contains("client_secret_post") && !methods.contains("client_secret_basic")
            return ProviderEndpoints(
                authorization: authorization, token: token, secretInForm: inForm, defaultScopes: ["openid", "email", "profile"])
        }
    }

    /// The client secret of the token endpoint: the configured `clientSecret`, else for Apple one made from its
    /// `codeFlowConfig` (``AppleClientSecret``); `nil` when there is none.
    func clientSecret(for provider: IdentityProviderConfig) -> String? {
        if let secret = provider.clientSecret, !secret.isEmpty { return secret }
        guard provider.providerID == "apple.com", let clientID = provider.clientID,
            let flow = AppleClientSecret.CodeFlowConfig(provider.appleCodeFlow.map(JSONValue.object))
        else { return nil }
        do { return try AppleClientSecret(config: flow).secret(clientID: clientID, now: node.clock.now()) } catch {
            node.logger.error("Apple client secret not made", metadata: ["reason": "\(error.message)"])
            return nil
        }
    }
}
