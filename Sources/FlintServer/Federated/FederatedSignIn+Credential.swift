import FlintCore

/// What a provider's credential proved: the user's claims (answered as `rawUserInfo`), the profile read from them,
/// and the provider's tokens (answered with `returnIdpCredential`).
struct ProviderCredential: Sendable {
    var claims: [String: JSONValue]
    var profile: ProviderProfile
    var oauthIdToken: String? = nil
    var oauthAccessToken: String? = nil
    /// OAuth 1.0a's token secret (Twitter), answered with `returnIdpCredential` beside the access token.
    var oauthTokenSecret: String? = nil
    /// The ID token's `nonce` when the app sent its raw nonce (a SAML assertion's ID): single-use, so a replayed
    /// credential is refused.
    var nonce: String? = nil
    /// How long the spent nonce must be remembered when longer than ``FederatedSignIn/nonceMemory`` (a SAML
    /// assertion's end of validity plus the skew).
    var nonceUntil: Instant? = nil
    /// What a second use of the nonce is answered (a SAML assertion's: `INVALID_IDP_RESPONSE`).
    var replayError: AuthError = .duplicateCredential
    /// A SAML assertion's attributes: the ID token's `firebase.sign_in_attributes`, the blocking functions' `sign_in_attributes`.
    var signInAttributes: [String: JSONValue]? = nil
}

extension ProviderCredential {
    /// What a verified ID token proved: its claims, the profile read from them (or `profile`), the token itself and the
    /// access token sent beside it, and its `nonce` to spend when the app sent a raw nonce.
    init(verified token: ProviderIDToken, idToken: String, accessToken: String?, rawNonce: String?, profile: ProviderProfile? = nil) {
        let sentNonce = !(rawNonce ?? "").isEmpty
        self.init(
            claims: token.claims, profile: profile ?? ProviderProfile(claims: token.claims), oauthIdToken: idToken, oauthAccessToken: accessToken,
            nonce: sentNonce ? token.claims["nonce"]?.stringValue : nil)
    }
}

extension FederatedSignIn {
    /// Google's token information and user information endpoints (the access-token flow).
    static let googleTokenInfo = "https://oauth2.googleapis.com/tokeninfo"
    static let googleUserInfo = "https://openidconnect.googleapis.com/v1/userinfo"

    /// Verifies the credential in `postBody`: an ID token (every provider), an authorization code (OIDC providers
    /// with a client secret: exchanged at the issuer's token endpoint, with the PKCE verifier when given) or a Google
    /// access token (checked with Google's token information to be the project's client's, then its user information).
    /// - Throws: `INVALID_IDP_RESPONSE` (or `MISSING_OR_INVALID_NONCE`) with what was wrong,
    ///   `INVALID_CREDENTIAL_OR_PROVIDER_ID` for a `postBody` without a credential.
    ///
    /// A built-in provider of ``BuiltInProviders`` (Facebook, GitHub…) verifies its own credentials.
    func credential(_ body: IdpPostBody, requestUri: String, provider: IdentityProviderConfig) async throws(AuthError) -> ProviderCredential {
        if provider.saml != nil {
            throw AuthError.invalidIdpResponse("A SAML provider signs in with the SAMLResponse its IdP posted to the sign-in handler, not a token.")
        }
        if let builtIn = BuiltInProviders.named(provider.providerID) {
            return try await builtIn.credential(body, requestUri: requestUri, provider: provider, flow: self)
        }
        let appName = ProviderProfile.appName(fromUserJSON: body.user)
        if let idToken = body.idToken, !idToken.isEmpty {
            let token = try await verify(idToken: idToken, rawNonce: body.nonce, provider: provider)
            return ProviderCredential(
                verified: token, idToken: idToken, accessToken: body.accessToken, rawNonce: body.nonce,
                profile: ProviderProfile(claims: token.claims, appName: appName))
        }
        let code = body.code ?? Self.queryValue("code", in: requestUri)
        if let code, !code.isEmpty {
            guard ProjectConfig.isOIDCProviderID(provider.providerID) else {
                throw AuthError.invalidIdpResponse("The code flow is served for OIDC providers only; send an id_token for \(provider.providerID).")
            }
            return try await exchange(code: code, verifier: body.codeVerifier, nonce: body.nonce, requestUri: requestUri, provider: provider)
        }
        if let accessToken = body.accessToken, !accessToken.isEmpty {
            guard provider.providerID == "google.com" else {
                throw AuthError.invalidIdpResponse("An access_token is accepted for google.com only; send an id_token for \(provider.providerID).")
            }
            return try await googleAccessToken(accessToken, provider: provider)
        }
        throw AuthError.invalidCredentialOrProviderID.with(
            detail: "Invalid IdP response/credential: the postBody has no id_token, code or access_token.")
    }

    /// The authorization-code flow: the code is exchanged at the provider's token endpoint (an OIDC issuer's from its
    /// discovery document), with the client secret (HTTP Basic, or in the form when the provider takes only that), for
    /// an ID token checked as any other. `redirect_uri` is `requestUri` without its query.
    func exchange(
        code: String, verifier: String?, nonce: String?, requestUri: String, provider: IdentityProviderConfig,
        nonceRule: ProviderNonceRule = .whenSent
    ) async throws(AuthError) -> ProviderCredential {
        let answer = try await redeem(
            code: code, verifier: verifier, requestUri: requestUri, provider: provider, at: try await endpoints(for: provider))
        guard let idToken = answer["id_token"]?.stringValue else {
            throw AuthError.invalidIdpResponse("The provider's token endpoint answered no ID token.")
        }
        let token = try await verify(idToken: idToken, rawNonce: nonce, provider: provider, nonceRule: nonceRule)
        return ProviderCredential(
            claims: token.claims, profile: ProviderProfile(claims: token.claims), oauthIdToken: idToken,
            oauthAccessToken: answer["access_token"]?.stringValue)
    }

    /// Redeems an authorization code at `endpoints`' token endpoint with the provider's client ID and secret (HTTP
    /// Basic, or in the form when the provider takes only that) and the PKCE verifier when given; `redirect_uri` is
    /// `requestUri` without its query. Answers the token endpoint's JSON.
    /// - Throws: `INVALID_IDP_RESPONSE` when there is no client secret, the endpoint cannot be reached, or it refuses
    ///   the code (with the provider's `error` when it names one).
    func redeem(code: String, verifier: String?, requestUri: String, provider: IdentityProviderConfig, at endpoints: ProviderEndpoints)
        async throws(AuthError) -> JSONValue
    {
        guard let clientID = provider.clientID, let secret = clientSecret(for: provider) else {
            throw AuthError.invalidIdpResponse("The code flow needs the provider's client secret in the project config.")
        }
        let redirect = String(requestUri.prefix { $0 != "?" && $0 != "#" })
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect)]
        if let verifier, !verifier.isEmpty { fields.append(("code_verifier", verifier)) }
        let answer: ProviderAnswer?
        if endpoints.secretInForm {
            answer = await keys.postForm(endpoints.token, fields + [("client_id", clientID), ("client_secret", secret)])
        } else {
            answer = await keys.postForm(endpoints.token, fields + [("client_id", clientID)], basic: (clientID, secret))
        }
        guard let answer else { throw AuthError.invalidIdpResponse("The provider's token endpoint could not be reached.") }
        // GitHub answers a refused code 200 with an `error` member; Facebook's `error` is an object with a `message`.
        guard answer.status == 200, let json = answer.json, json["error"] == nil else {
            let error = answer.json?["error"]
            let reason = (error?.stringValue ?? error?["message"]?.stringValue).map { " (\($0))" } ?? ""
            throw AuthError.invalidIdpResponse("The provider refused the authorization code\(reason).")
        }
        return json
    }

    /// Google's access-token flow: the token must have been issued to one of the configured client IDs (`aud` or
    /// `azp` of its token information), then its user information is the profile.
    private func googleAccessToken(_ accessToken: String, provider: IdentityProviderConfig) async throws(AuthError) -> ProviderCredential {
        let infoURL = keys.address(Self.googleTokenInfo, provider: provider.providerID)
        guard let info = await keys.postForm(infoURL, [("access_token", accessToken)]) else {
            throw AuthError.invalidIdpResponse("Google's token information could not be fetched.")
        }
        guard info.status == 200, let json = info.json, let sub = json["sub"]?.stringValue else {
            throw AuthError.invalidIdpResponse("The access token is invalid or has expired.")
        }
        let parties = [json["aud"]?.stringValue, json["azp"]?.stringValue].compactMap { $0 }
        guard parties.contains(where: provider.audiences.contains) else {
            throw AuthError.invalidIdpResponse("The access token was not issued to a client ID of this project.")
        }
        let userURL = keys.address(Self.googleUserInfo, provider: provider.providerID)
        guard let user = await keys.getJSON(userURL, bearer: accessToken), user.status == 200, let claims = user.json?.objectValue,
            claims["sub"]?.stringValue == sub
        else { throw AuthError.invalidIdpResponse("Google's user information could not be fetched for the access token.") }
        return ProviderCredential(claims: claims, profile: ProviderProfile(claims: claims), oauthIdToken: nil, oauthAccessToken: accessToken)
    }

    /// The first value of `name` in `uri`'s query, percent-decoded.
    static func queryValue(_ name: String, in uri: String) -> String? {
        guard let query = uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.prefix(while: { $0 != "#" }).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts[0] == name[...], parts.count == 2 { return IdpPostBody.decode(parts[1]) }
        }
        return nil
    }
}
