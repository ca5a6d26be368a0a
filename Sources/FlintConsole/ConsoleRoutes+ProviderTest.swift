import FlintCore
import FlintServer
import FlintStore
import Hummingbird

/// A provider's test sign-in, from the sign-in methods grid: the console starts a real web sign-in through the
/// project's own hosted handler (`/__/auth/handler`, `authType=signInViaRedirect`, as a page's `signInWithRedirect`
/// opens it) with a session ID it keeps in a cookie of its own, the operator signs in at the provider, and the handler
/// sends the browser back to the console's result page with the callback link. The console completes it as
/// `signInWithIdp` would — same state, session, code exchange, token and nonce checks — but stops before the account:
/// it shows the identity the provider vouched for and the account holding it, if any; it creates, links and signs in
/// nobody. The outcome is audited (`ADMIN_ACTION`, `testProviderSignIn`).
extension ConsoleRoutes {
    /// The cookie holding the test's raw session ID between the start and the result (SameSite=Lax: the provider's
    /// redirect back is a cross-site navigation).
    static let testCookie = "flint_console_provider_test"
    /// The result page, the sign-in's `redirectUrl`.
    static let testResultPath = "/console/provider-test/result"

    func startProviderTest(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            let id = form["providerId"] ?? ""
            let config = flow.node.config.current
            guard ConsoleProviderGrid.isTestable(id), let provider = config.identityProvider(id), provider.enabled,
                provider.clientID != nil, provider.clientSecret != nil || provider.appleCodeFlow != nil
            else {
                return pages.message(
                    "Test sign-in", "\(id) has no web sign-in to test: it must be on, with its client ID and secret.",
                    link: ("/console/settings#sign-in-methods", "Back to the sign-in methods"), caller: caller, status: .badRequest)
            }
            let base = flow.node.settings.publicBaseURL
            guard let url = ContinueURL(base + Self.testResultPath), url.isAuthorized(by: config.authorizedDomains) else {
                return pages.message(
                    "Test sign-in", "The console's address (\(base)) is not one of the authorized domains: add its host to test a sign-in.",
                    link: ("/console/settings#domains", "Authorized domains"), caller: caller, status: .badRequest)
            }
            let sessionID = flow.newToken()
            let query = Self.queryString([
                "apiKey": flow.node.settings.apiKeys.first ?? "flint-console", "authType": "signInViaRedirect", "providerId": id,
                "redirectUrl": base + Self.testResultPath, "sessionId": ProviderNonceRule.sha256Hex(sessionID),
                "eventId": "console-" + Hex.encode(flow.node.random.bytes(8)),
            ])
            // A page that goes on by itself rather than a redirect: the form's answer may not redirect to another origin
            // (`form-action 'self'`), and the handler sends the browser to the provider.
            let data = ["next": "/__/auth/handler?" + query, "lead": "Opening the sign-in with \(id)."]
            return pages.page("providerTestHop", title: "Test sign-in", data, caller: caller, cookie: testCookie(sessionID))
        }
    }

    func providerTestResult(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else {
            // The provider's redirect back is a cross-site navigation, which carries no SameSite=Strict session cookie:
            // one same-site step more (a refresh to this page) and the browser sends it.
            guard ConsoleForm.query("hop", in: request) == nil else { return Self.toSignIn }
            let again = Self.testResultPath + "?" + (request.uri.query ?? "") + "&hop=1"
            return pages.page("providerTestHop", title: "Test sign-in", ["next": again, "lead": "Back from the provider."])
        }
        guard caller.operatorRecord.mayUse(.default) else { return tenantRefused(caller) }
        guard caller.canWrite else { return pages.message("Refused", "Your role (read) may only read.", caller: caller, status: .forbidden) }
        var data: [String: Any] = [:]
        var detail: [String: JSONValue] = ["action": "testProviderSignIn", "via": "console"]
        if let error = ConsoleForm.query("firebaseError", in: request) {
            let parsed = try? JSONValue(parsing: Array(error.utf8))
            data["failure"] = parsed?["message"]?.stringValue ?? error
            detail["result"] = .string(parsed?["code"]?.stringValue ?? "failed")
        } else if let link = ConsoleForm.query("link", in: request), let sessionID = ConsoleForm.cookie(Self.testCookie, in: request) {
            do {
                let found = try await flow.testSignIn(link, sessionID)
                // Absent values stay absent: the template's sections test presence, and an empty string is present.
                var identity: [String: Any] = ["providerId": found.providerID, "rawId": found.rawID, "emailVerified": found.emailVerified]
                (identity["email"], identity["name"], identity["localId"]) = (found.email, found.displayName, found.localID)
                data["identity"] = identity
                (detail["provider"], detail["result"]) = (.string(found.providerID), "OK")
            } catch let error as AuthError {
                data["failure"] = error.detail ?? error.message
                detail["result"] = .string(error.code)
            }
        } else {
            data["failure"] = "This result has no sign-in of this browser: start the test again from the sign-in methods."
            detail["result"] = "NO_SESSION"
        }
        let origin = AuditOrigin(ip: context.clientIP, actor: caller.email)
        await flow.node.recordAudit(origin.event(.adminAction, uid: nil, at: flow.node.clock.now(), detail))
        return pages.page("providerTest", title: "Test sign-in", data, caller: caller, cookie: testCookie(nil))
    }

    /// The `Set-Cookie` value keeping `sessionID` for the test's result page (clearing it when `nil`).
    private func testCookie(_ sessionID: String?) -> String {
        var parts = ["\(Self.testCookie)=\(sessionID ?? "")", "Path=/console/provider-test", "HttpOnly", "SameSite=Lax"]
        parts.append(sessionID == nil ? "Max-Age=0" : "Max-Age=900")
        if flow.isSecure { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }
}
