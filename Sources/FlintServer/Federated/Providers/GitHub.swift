import AsyncHTTPClient
import FlintCore
import NIOCore
import NIOHTTP1

/// `github.com`: GitHub OAuth apps. An access token (`access_token`, what `GitHubAuthProvider` sends) must be one
/// GitHub issued to the configured app (checked with the app's client ID and secret at `POST
/// /applications/{client_id}/token`); a `code` (an app's own web flow, or the hosted handler's) is redeemed for one
/// first. The profile is `GET /user` (`rawUserInfo`; `login` is the `screenName`), the email the primary address from
/// `GET /user/emails` when GitHub verified it (the `user:email` scope), else the profile's public one.
///
/// GitHub's emails are not taken as verified, as Firebase takes them: an existing account with the address answers
/// `needConfirmation`.
struct GitHub: BuiltInProvider {
    var providerID: String { "github.com" }

    static let authorization = "https://github.com/login/oauth/authorize"
    static let token = "https://github.com/login/oauth/access_token"
    static let api = "https://api.github.com"
    /// The REST API version Flint speaks (`X-GitHub-Api-Version`).
    static let apiVersion = "2022-11-28"

    func credential(_ body: IdpPostBody, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential
    {
        if let accessToken = body.accessToken, !accessToken.isEmpty {
            return try await checked(accessToken: accessToken, provider: provider, flow: flow)
        }
        guard let code = body.code ?? FederatedSignIn.queryValue("code", in: requestUri), !code.isEmpty else {
            throw AuthError.invalidCredentialOrProviderID.with(
                detail: "Invalid IdP response/credential: send GitHub's access_token or an authorization code for github.com.")
        }
        return try await redeemed(code: code, verifier: body.codeVerifier, requestUri: requestUri, provider: provider, flow: flow)
    }

    func webFlow(for provider: IdentityProviderConfig, customParameters: [(String, String)], state: inout RedirectState, keys: ProviderKeys)
        -> ProviderEndpoints?
    { endpoints(keys) }

    func redirectCredential(code: String, state: RedirectState, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential
    {
        try await redeemed(code: code, verifier: state.codeVerifier, requestUri: requestUri, provider: provider, flow: flow)
    }

    /// The authorization and token endpoints (`client_secret` in the form; GitHub answers JSON when asked).
    private func endpoints(_ keys: ProviderKeys) -> ProviderEndpoints {
        ProviderEndpoints(
            authorization: keys.address(Self.authorization, provider: providerID), token: keys.address(Self.token, provider: providerID),
            secretInForm: true, defaultScopes: ["user:email"])
    }

    private func redeemed(code: String, verifier: String?, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential
    {
        let answer = try await flow.redeem(code: code, verifier: verifier, requestUri: requestUri, provider: provider, at: endpoints(flow.keys))
        guard let accessToken = answer["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw AuthError.invalidIdpResponse("GitHub answered no access token for the code.")
        }
        return try await checked(accessToken: accessToken, provider: provider, flow: flow)
    }

    /// An access token: this app's (GitHub's token check), then its user's profile and email.
    private func checked(accessToken: String, provider: IdentityProviderConfig, flow: FederatedSignIn) async throws(AuthError)
        -> ProviderCredential
    {
        guard let clientID = provider.clientID, !clientID.isEmpty, let secret = flow.clientSecret(for: provider) else {
            throw AuthError.invalidIdpResponse("github.com needs the OAuth app's client ID and secret (clientId, clientSecret).")
        }
        let keys = flow.keys
        let checkURL = keys.address("\(Self.api)/applications/\(URLQuery.escape(clientID))/token", provider: providerID)
        var check = HTTPClientRequest(url: checkURL)
        check.method = .POST
        let pair = URLQuery.escape(clientID) + ":" + URLQuery.escape(secret)
        check.headers.add(name: "Authorization", value: "Basic \(ProviderKeys.base64(Array(pair.utf8)))")
        for (name, value) in Self.headers { check.headers.add(name: name, value: value) }
        check.headers.add(name: "Content-Type", value: "application/json")
        check.body = .bytes(ByteBuffer(bytes: JSONValue.object(["access_token": .string(accessToken)]).serialized()))
        guard let checkAnswer = await keys.send(check, to: checkURL) else {
            throw AuthError.invalidIdpResponse("GitHub could not be reached to check the access token.")
        }
        switch checkAnswer.status {
        case 200: break
        case 404, 422:
            throw AuthError.invalidIdpResponse("The GitHub access token is not valid, was revoked, or was issued to another app.")
        default:
            throw AuthError.invalidIdpResponse(
                "GitHub refused to check the access token\(Self.reason(checkAnswer)) (check clientId and clientSecret).")
        }
        guard let user = await keys.getJSON(keys.address("\(Self.api)/user", provider: providerID), bearer: accessToken, headers: Self.headers)
        else { throw AuthError.invalidIdpResponse("GitHub could not be reached for the user's profile.") }
        guard user.status == 200, let profile = user.json?.objectValue, case .number(let number)? = profile["id"], number >= 0,
            number == number.rounded()
        else { throw AuthError.invalidIdpResponse("GitHub refused the access token\(Self.reason(user)).") }
        let emails = await keys.getJSON(keys.address("\(Self.api)/user/emails", provider: providerID), bearer: accessToken, headers: Self.headers)
        var claims: [String: JSONValue] = ["sub": .string(String(Int64(number))), "email_verified": false]
        (claims["name"], claims["picture"], claims["screen_name"]) = (profile["name"], profile["avatar_url"], profile["login"])
        if emails?.status == 200 {
            let primary = emails?.json?.arrayValue?.first { $0["primary"]?.boolValue == true && $0["verified"]?.boolValue == true }
            claims["email"] = primary?["email"]
        } else {
            // Without the `user:email` scope: the public address, which GitHub lets only a verified one be.
            claims["email"] = profile["email"]
        }
        return ProviderCredential(claims: profile, profile: ProviderProfile(claims: claims), oauthAccessToken: accessToken)
    }

    /// The headers GitHub's REST API asks for (it refuses requests without a `User-Agent`).
    private static let headers = [("Accept", "application/vnd.github+json"), ("X-GitHub-Api-Version", apiVersion), ("User-Agent", "Flint")]

    /// ` (<message>)` of a GitHub error answer, or nothing.
    private static func reason(_ answer: ProviderAnswer) -> String {
        answer.json?["message"]?.stringValue.map { " (\($0))" } ?? ""
    }
}
