import FlintCore
import Logging

/// The three legs of an OAuth 1.0a web flow (RFC 5849 §2): the request token's endpoint, the page where the user
/// authorizes it, and the access token's endpoint (each the provider's own address or its dev-mode stand-in's).
struct OAuth1Endpoints: Sendable {
    var requestToken: String
    var authorization: String
    var accessToken: String
}

/// The hosted handler's OAuth 1.0a web flow (Twitter), stateless as the OAuth 2 one:
/// 1. the start seals the sign-in's state into the callback URL (`<handler>?state=…`), gets a request token for it
///    (signed with the client's key and secret) and sends the browser to the provider with the token; the token's
///    secret, which the callback URL could not carry since it is fixed before the token exists, goes to the browser
///    in a sealed, `HttpOnly` cookie on `/__/auth/` (``OAuthRequestToken``);
/// 2. the provider's callback (`state`, `oauth_token`, `oauth_verifier`, or `denied`) finds the token's cookie,
///    clears it, and seals the token and its secret into the state the callback link carries;
/// 3. `signInWithIdp`, with that link as `requestUri`, exchanges the verifier for the access token (signed with the
///    request token's secret) and verifies it as an app's own credential.
extension FederatedRedirect {
    /// The cookie holding request token `token`'s secret: one per token, so sign-ins under way at once in one
    /// browser keep theirs.
    static func requestTokenCookie(_ token: String) -> String {
        "flint_oauth_" + ProviderNonceRule.sha256Hex(token).prefix(16)
    }

    /// Where the request token's cookie is sent: the handler's paths only.
    static let cookiePath = "/__/auth/"

    /// Gets a request token for the handler's callback carrying `state`, and answers the provider's authorization
    /// page with the cookie keeping the token's secret.
    /// - Throws: ``Refusal`` when the provider cannot be reached or refuses the client.
    func startOAuth1(_ legs: OAuth1Endpoints, state: RedirectState, request: RedirectStartRequest, clientID: String, secret: String)
        async throws(Refusal) -> Start
    {
        let callback = redirectURI + "?" + URLQuery.encode([("state", try seal(state))])
        let signer = OAuth1(consumerKey: clientID, consumerSecret: secret)
        let header = signer.authorization(
            method: "POST", url: legs.requestToken, oauth: [("oauth_callback", callback)], nonce: flow.oauthNonce(),
            timestamp: flow.oauthTimestamp())
        guard let answer = await flow.keys.postForm(legs.requestToken, [], headers: [("Authorization", header)]) else {
            throw Refusal(message: "The identity provider \(state.providerID) could not be reached.", code: "auth/network-request-failed")
        }
        let fields = FormDecoding.decode(String(decoding: answer.body, as: UTF8.self))
        guard answer.status == 200, let token = fields["oauth_token"], !token.isEmpty, let tokenSecret = fields["oauth_token_secret"],
            fields["oauth_callback_confirmed"] == "true"
        else {
            throw Refusal(
                message: "The identity provider \(state.providerID) refused the request token (\(OAuth1.reason(answer))).",
                code: "auth/invalid-credential")
        }
        let sealed: String
        do { sealed = try OAuthRequestToken(token: token, secret: tokenSecret, expiresAt: state.expiresAt).seal(key: flow.secret.idpKey) } catch {
            flow.node.logger.error("request token sealing failed", metadata: ["errorType": "\(type(of: error))"])
            throw Refusal(message: "The sign-in could not be started.")
        }
        var query = [("oauth_token", token)]
        if let language = request.language { query.append(("lang", language)) }
        query += request.customParameters.filter { $0.0 != "oauth_token" && $0.0 != "lang" }
        let separator = legs.authorization.contains("?") ? "&" : "?"
        let maxAge = max(0, (state.expiresAt - flow.node.clock.now()).components.seconds)
        return Start(
            location: legs.authorization + separator + URLQuery.encode(query),
            cookie: requestTokenCookie(name: Self.requestTokenCookie(token), value: sealed, maxAge: maxAge))
    }

    /// Reads an OAuth 1.0a callback: `denied` (the user cancelled), or `oauth_token` and `oauth_verifier`, whose token
    /// must be the one of a cookie this browser keeps. The link carries the state with the token and its secret.
    func oauth1Outcome(_ fields: [String: String], state: RedirectState, cookie: (String) -> String?) throws(Refusal) -> Outcome {
        if let denied = fields["denied"] {
            let refusal = Refusal(message: "The sign-in was cancelled at \(state.providerID).", code: "auth/user-cancelled")
            return Outcome(state: state, result: .failure(refusal), cookies: clearing(denied))
        }
        guard let token = fields["oauth_token"], !token.isEmpty, let verifier = fields["oauth_verifier"], !verifier.isEmpty else {
            let refusal = Refusal(message: "The identity provider answered neither a verifier nor a denial.", code: "auth/invalid-credential")
            return Outcome(state: state, result: .failure(refusal))
        }
        let now = flow.node.clock.now()
        guard let text = cookie(Self.requestTokenCookie(token)),
            let kept = OAuthRequestToken(opening: text, key: flow.secret.idpKey, now: now), kept.token == token
        else {
            let refusal = Refusal(
                message:
                    "This browser has not kept the sign-in's request token: allow cookies for \(WebSDKHandoff.origin(of: redirectURI)), and start from the same address.",
                code: "auth/web-storage-unsupported")
            return Outcome(state: state, result: .failure(refusal))
        }
        var completed = state
        completed.providerData = kept.token + "\n" + kept.secret
        let link = redirectURI + "?" + URLQuery.encode([("oauth_token", token), ("oauth_verifier", verifier), ("state", try seal(completed))])
        return Outcome(state: state, result: .success(link), cookies: clearing(token))
    }

    /// The `Set-Cookie` value that clears request token `token`'s cookie.
    private func clearing(_ token: String) -> [String] {
        [requestTokenCookie(name: Self.requestTokenCookie(token), value: "", maxAge: 0)]
    }

    /// A request token's `Set-Cookie` value: `HttpOnly`, `SameSite=Lax` (the provider's callback is a top-level
    /// navigation from its site), on the handler's paths, `Secure` unless the node is served over plain http (dev).
    private func requestTokenCookie(name: String, value: String, maxAge: Int64) -> String {
        var parts = ["\(name)=\(value)", "Path=\(Self.cookiePath)", "Max-Age=\(maxAge)", "HttpOnly", "SameSite=Lax"]
        if flow.node.settings.publicBaseURL.lowercased().hasPrefix("https://") { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }
}
