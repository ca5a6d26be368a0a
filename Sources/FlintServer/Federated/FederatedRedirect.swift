import FlintCore
import FlintStore
import Logging

/// The hosted handler's provider sign-in (`/__/auth/handler`): the start checks the app or page asking, seals the
/// sign-in's state (``RedirectState``) into the provider's authorization request (PKCE S256, nonce, scopes, custom
/// parameters) and sends the browser there; the provider's callback (code and state, or an error) goes back to the
/// app's URL scheme or the page's `redirectUrl` with the callback link, or, for the JS SDK, to a page that hands the
/// auth event over (``WebSDKHandoff``); `signInWithIdp` completes it
/// (``FederatedSignIn/redirectCredential(_:state:sessionID:provider:)``). Nothing is stored: any node serves any step.
struct FederatedRedirect: Sendable {
    let flow: FederatedSignIn
    /// The tenants a start names (``inTenant(_:_:)``).
    let tenants: TenantCache

    /// The path the provider sends the browser back to, and the link's base.
    static let handlerPath = "/__/auth/handler"

    /// What the start or the callback cannot use, with the words the error page shows and the JS SDK's error code
    /// (`auth/…`) its error event carries.
    struct Refusal: Error, Sendable {
        let message: String
        var code = "auth/internal-error"
    }

    /// The provider's callback URL registered with each provider: this node's handler.
    var redirectURI: String { flow.node.settings.publicBaseURL + Self.handlerPath }

    /// What a start answers: where the browser goes, and a cookie it keeps until the provider's callback (an OAuth 1.0a
    /// request token's, ``requestTokenCookie(_:)``).
    struct Start: Sendable {
        var location: String
        var cookie: String? = nil
    }

    /// Why a provider cannot run a web sign-in.
    enum ProviderUnusable: Error, Sendable {
        case notConfigured, disabled, noClientSecret
    }

    /// The provider `providerID` of `config` with its client ID and secret: the checks of every web sign-in's start
    /// (the handler's and `createAuthUri`'s), each answering in its own errors.
    /// - Throws: ``ProviderUnusable``: not configured, disabled, or without a client ID and secret.
    func webProvider(
        _ providerID: String, in config: ProjectConfig
    ) throws(ProviderUnusable) -> (provider: IdentityProviderConfig, clientID: String, secret: String) {
        guard let provider = config.identityProvider(providerID) else { throw .notConfigured }
        guard provider.enabled else { throw .disabled }
        guard let clientID = provider.clientID, let secret = flow.clientSecret(for: provider) else { throw .noClientSecret }
        return (provider, clientID, secret)
    }

    /// Checks a start and answers the provider's authorization URL; a start naming a tenant runs in it.
    /// - Throws: ``Refusal`` for a key, tenant, provider, app or page the project does not allow.
    func start(_ request: RedirectStartRequest) async throws(Refusal) -> Start {
        guard flow.node.settings.acceptsAPIKey(request.apiKey) else {
            throw Refusal(message: "The API key is not valid for this project.", code: "auth/invalid-api-key")
        }
        return try await inTenant(request.tenantID) { () async throws(Refusal) -> Start in try await startInScope(request) }
    }

    /// ``start(_:)`` in the request's tenant: the tenant's provider, the project's apps and authorized domains.
    private func startInScope(_ request: RedirectStartRequest) async throws(Refusal) -> Start {
        let config = flow.node.config.current
        if Self.isSAML(request.providerID) {
            let provider: SAMLProvider
            do { provider = try flow.samlProvider(request.providerID) } catch {
                throw Refusal(error, providerID: request.providerID)
            }
            try check(request, in: config)
            return Start(location: try await samlLocation(provider, state: newState(request, providerID: provider.config.providerID)))
        }
        let (provider, clientID, secret): (IdentityProviderConfig, String, String)
        do { (provider, clientID, secret) = try webProvider(request.providerID, in: config) } catch {
            throw Refusal(error, providerID: request.providerID)
        }
        try check(request, in: config)
        var state = newState(request, providerID: provider.providerID)
        let endpoints: ProviderEndpoints
        if let builtIn = BuiltInProviders.named(provider.providerID) {
            if let legs = builtIn.oauth1Endpoints(keys: flow.keys) {
                return try await startOAuth1(legs, state: state, request: request, clientID: clientID, secret: secret)
            }
            guard let own = builtIn.webFlow(for: provider, customParameters: request.customParameters, state: &state, keys: flow.keys) else {
                throw Refusal(message: "Flint runs no web sign-in for \(provider.providerID).", code: "auth/operation-not-allowed")
            }
            endpoints = own
        } else {
            do { endpoints = try await flow.endpoints(for: provider) } catch {
                throw Refusal(message: error.detail ?? error.code, code: "auth/network-request-failed")
            }
        }
        return Start(
            location: try authorizationURL(
                endpoints, clientID: clientID, state: state, redirectURI: redirectURI, scopes: request.scopes,
                customParameters: request.customParameters, language: request.language))
    }

    /// A start's new state for `providerID`.
    private func newState(_ request: RedirectStartRequest, providerID: String) -> RedirectState {
        newState(
            providerID: providerID, sessionHash: request.sessionHash, eventID: request.eventID, authType: request.authType, target: request.target)
    }

    /// Checks that the app (its bundle ID) or page (its domain) a start names is one of the project's.
    /// - Throws: ``Refusal`` naming which.
    private func check(_ request: RedirectStartRequest, in config: ProjectConfig) throws(Refusal) {
        switch request.target {
        case .app:
            guard let bundleID = request.bundleID, config.appleBundleIDs.contains(bundleID) else {
                throw Refusal(message: "The app \(request.bundleID ?? "") is not one of this project's iOS apps (flint.appLinks.apple.bundleIds).")
            }
        case .web(let redirectURL), .sdk(_, _, let redirectURL):
            guard let url = ContinueURL(redirectURL), url.isAuthorized(by: config.authorizedDomains) else {
                throw Refusal(message: "The redirectUrl's domain is not one of this project's authorized domains.", code: "auth/unauthorized-domain")
            }
        }
    }

    /// The provider's OAuth 2 authorization request: the client, the callback `redirectURI`, the scopes, `state` sealed,
    /// its nonce's SHA-256, PKCE S256, then the app's custom parameters (never over the request's own).
    /// - Throws: ``Refusal`` when the state cannot be sealed.
    func authorizationURL(
        _ endpoints: ProviderEndpoints, clientID: String, state: RedirectState, redirectURI: String, scopes: [String],
        customParameters: [(String, String)], language: String?
    ) throws(Refusal) -> String {
        let sealed = try seal(state)
        var query = [
            ("client_id", clientID), ("redirect_uri", redirectURI), ("response_type", "code"),
            ("scope", endpoints.scope(adding: scopes)), ("state", sealed), ("nonce", ProviderNonceRule.sha256Hex(state.nonce)),
            ("code_challenge", state.codeChallenge), ("code_challenge_method", "S256"),
        ]
        if endpoints.formPost { query.append(("response_mode", "form_post")) }
        if let language { query.append((endpoints.languageParameter, language)) }
        let reserved = Set(query.map(\.0))
        query += customParameters.filter { !reserved.contains($0.0) }
        let separator = endpoints.authorization.contains("?") ? "&" : "?"
        return endpoints.authorization + separator + URLQuery.encode(query)
    }

    /// `state` sealed for the provider's round trip.
    /// - Throws: ``Refusal`` when it cannot be sealed.
    func seal(_ state: RedirectState) throws(Refusal) -> String {
        do { return try state.seal(key: flow.secret.idpKey) } catch {
            flow.node.logger.error("redirect state sealing failed", metadata: ["errorType": "\(type(of: error))"])
            throw Refusal(message: "The sign-in could not be started.")
        }
    }

    /// What a provider's callback gave: the sign-in's state, and the callback link (the handler's URL with `code` and
    /// `state`, which the SDK sends as `requestUri`) or the provider's error.
    struct Outcome: Sendable {
        let state: RedirectState
        let result: Result<String, Refusal>
        /// `Set-Cookie` values the callback's answer carries (the spent request token's cookie, cleared).
        var cookies: [String] = []
        /// Whether a successful result is where the browser goes itself (a SAML `createAuthUri` sign-in's `continueUri`
        /// with the response), not a link handed to the app or page.
        var direct = false
    }

    /// Reads the provider's callback (query or `form_post` fields); `cookie` reads the browser's cookies.
    /// - Throws: ``Refusal`` for a missing, forged or expired state.
    func outcome(_ fields: [String: String], cookie: (String) -> String? = { _ in nil }) throws(Refusal) -> Outcome {
        guard let text = fields["state"], !text.isEmpty,
            let state = RedirectState(opening: text, key: flow.secret.idpKey, now: flow.node.clock.now())
        else { throw Refusal(message: "This sign-in is not valid or has expired. Go back to the app and start again.") }
        if BuiltInProviders.named(state.providerID)?.oauth1Endpoints(keys: flow.keys) != nil {
            return try oauth1Outcome(fields, state: state, cookie: cookie)
        }
        if let error = fields["error"], !error.isEmpty {
            let code = error == "access_denied" ? "auth/user-cancelled" : "auth/invalid-credential"
            let detail = fields["error_description"].map { ": \($0)" } ?? ""
            return Outcome(state: state, result: .failure(Refusal(message: "The identity provider answered \(error)\(detail).", code: code)))
        }
        guard let code = fields["code"], !code.isEmpty else {
            let refusal = Refusal(message: "The identity provider answered neither a code nor an error.", code: "auth/invalid-credential")
            return Outcome(state: state, result: .failure(refusal))
        }
        var link = [("code", code), ("state", text)]
        if let user = fields["user"], !user.isEmpty { link.append(("user", user)) }
        return Outcome(state: state, result: .success(redirectURI + "?" + URLQuery.encode(link)))
    }

    /// Where the browser goes after an app's or a plain page's callback: the app's URL scheme or the page's
    /// `redirectUrl`, with the callback link or the provider's error as a `firebaseError`; `nil` for the JS SDK's
    /// sign-ins, whose callback answers a page (``WebSDKHandoff``).
    func location(after outcome: Outcome) -> String? {
        if outcome.direct, case .success(let location) = outcome.result { return location }
        var result: [(String, String)]
        switch outcome.result {
        case .success(let link): result = [("link", link)]
        case .failure(let refusal): result = [Self.firebaseError(refusal.code, refusal.message)]
        }
        result += [("authType", outcome.state.authType), ("eventId", outcome.state.eventID)]
        switch outcome.state.target {
        case .app(let scheme):
            let inner = flow.node.settings.publicBaseURL + "/__/auth/callback?" + URLQuery.encode(result)
            return "\(scheme)://firebaseauth/link?" + URLQuery.encode([("deep_link_id", inner)])
        case .web(let redirectURL):
            let fragment = redirectURL.firstIndex(of: "#").map { String(redirectURL[$0...]) } ?? ""
            let base = String(redirectURL.prefix { $0 != "#" })
            return base + (base.contains("?") ? "&" : "?") + URLQuery.encode(result) + fragment
        case .sdk: return nil
        }
    }

    /// A callback's `firebaseError` field: the JSON `{code, message}` the SDKs read.
    private static func firebaseError(_ code: String, _ message: String) -> (String, String) {
        let json: JSONValue = ["code": .string(code), "message": .string(message)]
        return ("firebaseError", String(decoding: json.serialized(), as: UTF8.self))
    }
}

extension FederatedRedirect.Refusal {
    /// The page's words for a provider ``FederatedRedirect/webProvider(_:in:)`` refused.
    init(_ reason: FederatedRedirect.ProviderUnusable, providerID: String) {
        let why =
            switch reason {
            case .notConfigured: "is not configured for this project"
            case .disabled: "is disabled for this project"
            case .noClientSecret: "has no client ID and secret for the web flow"
            }
        self.init(message: "The identity provider \(providerID) \(why).", code: "auth/operation-not-allowed")
    }
}
