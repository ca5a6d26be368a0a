import FlintCore
import FlintTexts
import HTTPTypes
import Hummingbird
import NIOCore

/// The hosted handler's side of the Firebase JS SDK's popup and redirect sign-in (a start with `appName`,
/// ``RedirectState/Target/sdk(apiKey:appName:redirectURL:)``). The start makes the sign-in's session ID (only its SHA-256
/// goes into the sealed state) and answers a page whose script keeps it in the tab's `sessionStorage` and moves on to
/// the provider; the provider's callback answers a page whose script builds the auth event with that session ID and
/// hands it to the app: to the opener's Flint iframe for a popup, through `sessionStorage` and a return to the page for
/// a redirect (``HandlerScript``). What cannot start becomes an error event too, except where the page is not one to
/// send anything to: a malformed start, or a redirect to a domain the project does not authorize, gets an error page.
struct WebSDKHandoff: Sendable {
    let redirect: FederatedRedirect

    /// The prefix of the `sessionStorage` key under which the start page keeps the session ID (then its SHA-256 hex).
    static let sessionKeyPrefix = "flint:handlerSession:"

    /// Starts a JS SDK sign-in: the start page, or the error event (or page) saying why it cannot start.
    func start(_ request: RedirectStartRequest) async -> Response {
        guard case .sdk(let apiKey, let appName, let redirectURL) = request.target else {
            return Self.page(ChallengePage.failure(appName: node.appName, message: "This is not a JavaScript SDK sign-in."), status: .badRequest)
        }
        let session = Base64URL.encode(node.random.bytes(32))
        var started = request
        started.sessionHash = ProviderNonceRule.sha256Hex(session)
        do {
            let next = try await redirect.start(started)
            let html = WebSDKPage.start(
                appName: node.appName, session: session, sessionKey: Self.sessionKey(started.sessionHash), next: next.location,
                origin: Self.origin(of: node.settings.publicBaseURL))
            var response = Self.page(html, status: .ok)
            if let cookie = next.cookie { response.headers[.setCookie] = cookie }
            return response
        } catch {
            let popup = Self.isPopup(request.authType)
            let authorized = ContinueURL(redirectURL)?.isAuthorized(by: node.config.current.authorizedDomains) == true
            guard popup || authorized else {
                return Self.page(ChallengePage.failure(appName: node.appName, message: error.message), status: .badRequest)
            }
            let event = AuthEvent(type: request.authType, eventID: request.eventID, error: (error.code, error.message))
            return handoff(event, popup: popup, apiKey: apiKey, appName: appName, redirectURL: redirectURL, sessionHash: nil, status: .badRequest)
        }
    }

    /// Answers a JS SDK sign-in's callback: the hand-over page with the link, or with the provider's error.
    func callback(_ outcome: FederatedRedirect.Outcome) -> Response {
        let state = outcome.state
        guard case .sdk(let apiKey, let appName, let redirectURL) = state.target else {
            return Self.page(ChallengePage.failure(appName: node.appName, message: "This is not a JavaScript SDK sign-in."), status: .badRequest)
        }
        let event: AuthEvent
        switch outcome.result {
        case .success(let link): event = AuthEvent(type: state.authType, eventID: state.eventID, urlResponse: link, tenantID: state.tenant)
        case .failure(let refusal): event = AuthEvent(type: state.authType, eventID: state.eventID, error: (refusal.code, refusal.message))
        }
        return handoff(
            event, popup: Self.isPopup(state.authType), apiKey: apiKey, appName: appName, redirectURL: redirectURL,
            sessionHash: event.error == nil ? state.sessionHash : nil, status: .ok)
    }

    private var node: Node { redirect.flow.node }

    private func handoff(
        _ event: AuthEvent, popup: Bool, apiKey: String, appName: String, redirectURL: String, sessionHash: String?, status: HTTPResponse.Status
    ) -> Response {
        let handoff = WebSDKPage.Handoff(
            popup: popup, event: event.json, apiKey: apiKey, appName: appName, redirectURL: redirectURL, sessionKey: sessionHash.map(Self.sessionKey),
            errorMessage: event.error?.message, appDisplayName: node.appName)
        return Self.page(WebSDKPage.handoff(handoff), status: status)
    }

    /// The origin (`scheme://host[:port]`) of `url`.
    static func origin(of url: String) -> String {
        let parts = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0].hasSuffix(":"), parts[1].isEmpty else { return url }
        return parts[0] + "//" + parts[2]
    }

    /// Whether `authType` is a popup's (`signInViaPopup`, `linkViaPopup`, `reauthViaPopup`).
    static func isPopup(_ authType: String) -> Bool { authType.hasSuffix("ViaPopup") }

    /// The `sessionStorage` key of a session whose SHA-256 hex is `hash`.
    static func sessionKey(_ hash: String) -> String { sessionKeyPrefix + hash }

    /// An HTML answer under the hand-over pages' policy, never cached, framed or leaking its URL as a referrer. It has
    /// no `Cross-Origin-Opener-Policy`: that would cut a popup from `window.opener`, the way its event goes back.
    static func page(_ html: String, status: HTTPResponse.Status) -> Response {
        ActionRoutes.page(html, status: status, policy: WebSDKPage.handlerPolicy)
    }
}
