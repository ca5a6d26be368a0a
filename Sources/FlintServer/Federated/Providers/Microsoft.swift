import FlintCore

/// `microsoft.com`: Microsoft identity platform (v2.0) OpenID Connect. Its ID tokens name their directory (`tid`) and
/// their issuer is that directory's (`https://login.microsoftonline.com/{tid}/v2.0`), so the issuer is checked
/// against the token's own `tid`. The web flow goes to the tenant the app names in its custom parameters (`tenant`:
/// `common` by default, `organizations`, `consumers`, a directory ID or domain), and its ID token must come from a
/// directory that tenant admits: personal accounts' for `consumers`, any other for `organizations`, that directory
/// for a directory ID.
struct Microsoft: BuiltInProvider {
    var providerID: String { "microsoft.com" }

    static let login = "https://login.microsoftonline.com"
    /// The keys of every directory.
    static let jwks = "https://login.microsoftonline.com/common/discovery/v2.0/keys"
    /// The directory of personal Microsoft accounts.
    static let consumersDirectory = "9188040d-6c67-4c5b-b112-36a304b66dad"

    func credential(_ body: IdpPostBody, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential
    {
        guard let idToken = body.idToken, !idToken.isEmpty else {
            throw AuthError.invalidIdpResponse("Send Microsoft's id_token (with its access_token) for microsoft.com.")
        }
        return try await verified(
            idToken, accessToken: body.accessToken, rawNonce: body.nonce, nonceRule: .required, tenant: "common", provider: provider,
            flow: flow)
    }

    func webFlow(for provider: IdentityProviderConfig, customParameters: [(String, String)], state: inout RedirectState, keys: ProviderKeys)
        -> ProviderEndpoints?
    {
        let named = customParameters.last { $0.0 == "tenant" }?.1 ?? ""
        let tenant = Self.isTenant(named) ? named : "common"
        state.providerData = tenant
        return endpoints(tenant: tenant, keys: keys)
    }

    func redirectCredential(code: String, state: RedirectState, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential
    {
        let tenant = Self.isTenant(state.providerData) ? state.providerData : "common"
        let answer = try await flow.redeem(
            code: code, verifier: state.codeVerifier, requestUri: requestUri, provider: provider, at: endpoints(tenant: tenant, keys: flow.keys))
        guard let idToken = answer["id_token"]?.stringValue else { throw AuthError.invalidIdpResponse("Microsoft answered no ID token.") }
        return try await verified(
            idToken, accessToken: answer["access_token"]?.stringValue, rawNonce: state.nonce, nonceRule: .required, tenant: tenant,
            provider: provider, flow: flow)
    }

    /// The tenant's authorization and token endpoints (its web flow: `client_secret_post`).
    private func endpoints(tenant: String, keys: ProviderKeys) -> ProviderEndpoints {
        ProviderEndpoints(
            authorization: keys.address("\(Self.login)/\(tenant)/oauth2/v2.0/authorize", provider: providerID),
            token: keys.address("\(Self.login)/\(tenant)/oauth2/v2.0/token", provider: providerID), secretInForm: true,
            defaultScopes: ["openid", "email", "profile"])
    }

    private func verified(
        _ idToken: String, accessToken: String?, rawNonce: String?, nonceRule: ProviderNonceRule, tenant: String,
        provider: IdentityProviderConfig, flow: FederatedSignIn
    ) async throws(AuthError) -> ProviderCredential {
        let token = try await flow.verify(
            idToken: idToken, rawNonce: rawNonce, provider: provider, jwks: Self.jwks, nonceRule: nonceRule,
            issuers: { claims in
                guard let tid = claims["tid"]?.stringValue, Self.isTenant(tid), Self.admits(tenant: tenant, directory: tid) else { return [] }
                return ["\(Self.login)/\(tid)/v2.0"]
            })
        var claims = token.claims
        // Microsoft's `sub` is per app; `oid` is the user's ID in the directory, the one Firebase keeps.
        if let oid = claims["oid"]?.stringValue, !oid.isEmpty { claims["sub"] = .string(oid) }
        var profile = ProviderProfile(claims: claims)
        // Work accounts often carry no `email`, only their sign-in name: taken as the email, unverified.
        if profile.email == nil, let name = claims["preferred_username"]?.stringValue, name.contains("@") {
            (profile.email, profile.emailVerified) = (name.lowercased(), false)
        }
        return ProviderCredential(verified: token, idToken: idToken, accessToken: accessToken, rawNonce: rawNonce, profile: profile)
    }

    /// Whether the web flow's `tenant` admits a token from `directory`.
    static func admits(tenant: String, directory: String) -> Bool {
        switch tenant.lowercased() {
        case "common": true
        case "consumers": directory == consumersDirectory
        case "organizations": directory != consumersDirectory
        default: isDirectoryID(tenant) ? tenant.lowercased() == directory.lowercased() : true
        }
    }

    /// A tenant name that may go in a path: letters, digits, `-` and `.` (a directory ID, a domain, or one of the
    /// three keywords).
    static func isTenant(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == ".") }
    }

    /// A directory ID: a GUID.
    static func isDirectoryID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
