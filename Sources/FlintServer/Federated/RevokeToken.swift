import FlintCore
import FlintStore
import Hummingbird

/// `v2/accounts:revokeToken`: a signed-in user asks that the provider forget the app's authorization (Sign in with
/// Apple's account deletion). FirebaseAuth sends `providerId` `apple.com`, `tokenType` `CODE` (as its number, `"3"`)
/// and the authorization code Apple gave the app; the JavaScript SDK an access token (`ACCESS_TOKEN`).
struct RevokeTokenRequest: Decodable, Sendable {
    /// The signed-in user's ID token.
    var idToken: String?
    /// Only `apple.com`.
    var providerId: String?
    /// What `token` is.
    var tokenType: RevokeTokenType?
    /// The authorization code, or the provider's access or refresh token.
    var token: String?
    /// The redirect URI of the authorization request (web flows); sent to Apple with the code when given.
    var redirectUri: String?
    /// The tenant (``TenantMiddleware``; FirebaseAuth sends none, and the ID token's `firebase.tenant` chooses it): the
    /// tenant's user and the tenant's apple.com config.
    var tenantId: String?
}

/// The answer: empty.
struct RevokeTokenResponse: ResponseEncodable, Sendable {}

/// `tokenType`, a proto3 enum: its name or its number (as a number or, as FirebaseAuth sends it, a string).
struct RevokeTokenType: Decodable, Sendable {
    /// The kinds of token.
    enum Kind: Int, Sendable {
        case unspecified = 0
        case refreshToken = 1
        case accessToken = 2
        case code = 3
    }

    let kind: Kind

    /// The enum's names, by kind.
    static let names: [String: Kind] = [
        "TOKEN_TYPE_UNSPECIFIED": .unspecified, "REFRESH_TOKEN": .refreshToken, "ACCESS_TOKEN": .accessToken, "CODE": .code,
    ]

    /// Reads the name or the number (the wire decoder gives a number as its text).
    /// - Throws: `INVALID_ARGUMENT` (`Invalid JSON payload received. Invalid value at 'token_type' (…)`) for any other.
    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let found = Self.names[text] ?? Int(text).flatMap(Kind.init(rawValue:)) else {
            throw AuthError.invalidJSON(
                "Invalid value at 'token_type' (type.googleapis.com/google.cloud.identitytoolkit.v2.RevokeTokenRequest.TokenType), \"\(text.prefix(40))\""
            )
        }
        kind = found
    }
}

extension FederatedSignIn {
    /// Revokes the app's authorization at the provider for the signed-in user (only Sign in with Apple): an
    /// authorization code is exchanged at Apple's token endpoint for the user's tokens, and the refresh token (else
    /// the access token) is revoked; an access or refresh token is revoked as it is. Both calls authenticate with a
    /// client secret signed with the apple.com config's `codeFlowConfig` key (``AppleClientSecret``); in a tenant, the
    /// tenant's apple.com config.
    /// - Throws: `MISSING_ID_TOKEN`, `INVALID_ID_TOKEN`, `TOKEN_EXPIRED`, `USER_NOT_FOUND`, `USER_DISABLED` for the
    ///   session; `INVALID_PROVIDER_ID` for another provider; `INVALID_ARGUMENT` without a token or its type;
    ///   `OPERATION_NOT_ALLOWED` when apple.com is not enabled; `NO_SUCH_PROVIDER` when the user has no Apple
    ///   identity; `INVALID_IDP_RESPONSE` when the code flow is not configured, Apple refuses, or the code is another
    ///   Apple ID's.
    func revokeToken(_ wire: RevokeTokenRequest) async throws -> RevokeTokenResponse {
        let (_, user) = try await sessions.authenticate(idToken: wire.idToken)
        guard wire.providerId == "apple.com" else { throw AuthError.invalidProviderID }
        guard let kind = wire.tokenType?.kind, kind != .unspecified else { throw AuthError.invalidArgument("Missing or unspecified tokenType.") }
        guard let token = wire.token, !token.isEmpty else { throw AuthError.invalidArgument("Missing token.") }
        guard let provider = node.config.current.identityProvider("apple.com"), provider.enabled else {
            throw AuthError.operationNotAllowed.with(detail: "The identity provider configuration is not found or disabled.")
        }
        let identities = try await node.store.read { try await $0.federatedIdentities(tenant: .scoped, localID: user.localID) }
        guard let identity = identities.first(where: { $0.providerID == "apple.com" }) else { throw AuthError.noSuchProvider }
        let apple = try appleClient(provider: provider)
        switch kind {
        case .code:
            let tokens = try await apple.exchange(code: token, redirectURI: wire.redirectUri)
            if let idToken = tokens.idToken {
                let verified = try await verify(idToken: idToken, rawNonce: nil, provider: provider, nonceRule: .whenSent)
                guard verified.claims["sub"]?.stringValue == identity.rawID else {
                    throw AuthError.invalidIdpResponse("The authorization code is not for the signed-in user's Apple ID.")
                }
            }
            try await apple.revoke(tokens.revocable, hint: tokens.hint, clientID: tokens.clientID)
        case .accessToken, .refreshToken:
            try await apple.revoke(token, hint: kind == .accessToken ? "access_token" : "refresh_token", clientID: apple.clientIDs[0])
        case .unspecified:
            throw AuthError.invalidArgument("Missing or unspecified tokenType.")
        }
        return RevokeTokenResponse()
    }

    /// Apple's endpoints for the configured client IDs and code-flow key.
    private func appleClient(provider: IdentityProviderConfig) throws(AuthError) -> AppleTokenClient {
        guard let config = AppleClientSecret.CodeFlowConfig(provider.appleCodeFlow.map(JSONValue.object)) else {
            throw AuthError.invalidIdpResponse(
                "The apple.com configuration has no OAuth code flow configuration (appleSignInConfig.codeFlowConfig: teamId, keyId, privateKey).")
        }
        guard !provider.audiences.isEmpty else { throw AuthError.invalidIdpResponse("The apple.com configuration has no client ID.") }
        let secret: AppleClientSecret
        do { secret = try AppleClientSecret(config: config) } catch { throw AuthError.invalidIdpResponse(error.message) }
        return AppleTokenClient(keys: keys, secret: secret, clientIDs: provider.audiences, now: node.clock.now())
    }
}
