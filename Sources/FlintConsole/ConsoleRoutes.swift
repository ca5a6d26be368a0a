import FlintCore
import FlintServer
import FlintStore
import Hummingbird

/// The web console at `/console`: server-rendered pages over ``ConsoleFlow``. Pages need a signed-in session (a
/// request without one is sent to the sign-in page); every POST but the sign-in steps checks the session's CSRF
/// token, and actions are refused with 403 to a read-only operator.
struct ConsoleRoutes: Sendable {
    let flow: ConsoleFlow
    let pages: ConsolePages
    /// The user imports running and done on this node.
    let imports: ConsoleImportJobs

    /// One console handler.
    typealias Handler = @Sendable (Request, FlintRequestContext) async throws -> Response

    /// The handler of each page (GET) and form (POST) of the console.
    private func handler(_ endpoint: ConsoleEndpoint) -> Handler {
        switch endpoint {
        case .root: { _, _ in ConsolePages.redirect(Self.home) }
        case .stylesheet: { _, _ in ConsolePages.stylesheet() }
        case .script: { _, _ in ConsolePages.script() }
        case .showSignIn: showSignIn
        case .signIn: signIn
        case .showCode: showCode
        case .submitCode: submitCode
        case .signOut: signOut
        case .showSetup: showSetup
        case .submitSetup: submitSetup
        case .dashboard: dashboard
        case .users: users
        case .user: user
        case .act: act
        case .bulkAct: bulkAct
        case .showNewUser: showNewUser
        case .createUser: createUser
        case .deliveries: deliveries
        case .security: security
        case .showKeys: showKeys
        case .rotateKeys: rotateKeys
        case .webhooks: webhooks
        case .actOnWebhooks: actOnWebhooks
        case .templates: templates
        case .saveTemplate: saveTemplate
        case .previewTemplate: previewTemplate
        case .settings: settings
        case .changeTestNumbers: changeTestNumbers
        case .changeSettings: changeSettings
        case .changeProvider: changeProvider
        case .blockingDryRun: blockingDryRun
        case .changeProviderState: changeProviderState
        case .startProviderTest: startProviderTest
        case .providerTestResult: providerTestResult
        case .usageCSV: usageCSV
        case .transfers: transfers
        case .importUsers: importUsers
        case .importJob: importJob
        case .exportUsers: exportUsers
        case .identityProviders: identityProviders
        case .showIdentityProvider: showIdentityProvider
        case .saveIdentityProvider: saveIdentityProvider
        case .deleteIdentityProvider: deleteIdentityProvider
        case .outbox: devOutbox
        case .tenants: tenants
        case .createTenant: createTenant
        case .showTenant: showTenant
        case .saveTenant: saveTenant
        case .deleteTenant: deleteTenant
        }
    }

    /// Registers every console endpoint (``ConsoleEndpoint``) with its handler, behind the operator's tenant limit
    /// (``scoped(_:_:)``).
    func register(on router: EndpointRouter) {
        for endpoint in ConsoleEndpoint.allCases { router.register(endpoint.endpoint, use: scoped(endpoint.scope, handler(endpoint))) }
    }

    /// The session cookie's token.
    func token(_ request: Request) -> String? { ConsoleForm.cookie(flow.cookieName, in: request) }

    /// The signed-in operator, if any.
    func caller(_ request: Request) async throws -> ConsoleCaller? {
        if let signedIn = ConsoleTenant.signedIn { return signedIn }
        return try await flow.caller(token: token(request))
    }

    /// Where `/console` and a completed sign-in lead: the dashboard.
    static let home = "/console/dashboard"

    /// Where a request without a session goes.
    static let toSignIn = ConsolePages.redirect("/console/sign-in")

    /// A POST's form (of at most `limit` bytes) after its CSRF check: `nil` when the token is missing or wrong.
    func checkedForm(_ request: Request, csrf: String, limit: Int = ConsoleForm.maxBytes) async throws -> [String: String]? {
        let form = try await ConsoleForm.read(request, limit: limit)
        guard let sent = form["csrf"], constantTimeEquals(Array(sent.utf8), Array(csrf.utf8)) else { return nil }
        return form
    }

    /// Answers a POST that changes something with `change`, given the signed-in operator and the form, when the
    /// operator may write and the form passes its CSRF check; else with the sign-in redirect, the stale-form page or
    /// the read-only refusal.
    func change(
        _ request: Request, limit: Int = ConsoleForm.maxBytes, _ change: (ConsoleCaller, [String: String]) async throws -> Response
    ) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        guard let form = try await checkedForm(request, csrf: caller.csrf, limit: limit) else { return csrfRefused(caller) }
        guard caller.canWrite else { return pages.message("Refused", "Your role (read) may only read.", caller: caller, status: .forbidden) }
        return try await change(caller, form)
    }

    /// The answer to a POST whose CSRF token is missing or wrong.
    func csrfRefused(_ caller: ConsoleCaller?) -> Response {
        pages.message(
            "Refused", "The form is stale or did not come from this console: reload the page and try again.", caller: caller, status: .forbidden)
    }

    // MARK: Sign-in

    func showSignIn(_ request: Request, context: FlintRequestContext) async throws -> Response {
        if try await caller(request) != nil { return ConsolePages.redirect(Self.home) }
        return pages.page("signIn", title: "Sign in")
    }

    func signIn(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let form = try await ConsoleForm.read(request)
        let email = form["email"] ?? ""
        do {
            let pending = try await flow.checkPassword(email: email, password: form["password"] ?? "", ip: context.clientIP)
            return ConsolePages.redirect("/console/sign-in/totp", cookie: flow.setCookie(pending))
        } catch let refusal as ConsoleRefusal {
            return pages.page("signIn", title: "Sign in", ["error": refusal.message, "email": email], status: .unauthorized)
        }
    }

    func showCode(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let pending = token(request) else { return Self.toSignIn }
        return pages.page("totp", title: "Two-step verification", ["csrf": ConsoleFlow.csrfToken(for: pending)])
    }

    func submitCode(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let pending = token(request) else { return Self.toSignIn }
        let csrf = ConsoleFlow.csrfToken(for: pending)
        guard let form = try await checkedForm(request, csrf: csrf) else { return csrfRefused(nil) }
        do {
            let active = try await flow.checkCode(pendingToken: pending, code: form["code"] ?? "", ip: context.clientIP)
            return ConsolePages.redirect(Self.home, cookie: flow.setCookie(active))
        } catch let refusal as ConsoleRefusal {
            return pages.page("totp", title: "Two-step verification", ["csrf": csrf, "error": refusal.message], status: .unauthorized)
        }
    }

    func signOut(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let token = token(request), let caller = try await flow.caller(token: token) else { return Self.toSignIn }
        guard try await checkedForm(request, csrf: caller.csrf) != nil else { return csrfRefused(caller) }
        try await flow.signOut(token: token)
        return ConsolePages.redirect("/console/sign-in", cookie: flow.setCookie(nil))
    }

    // MARK: Setup

    func showSetup(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let token = ConsoleForm.query("token", in: request), let record = try await flow.operatorToSetUp(token: token) else {
            return pages.message("Setup", "This setup link is unknown, used or expired: ask for a new one.", status: .notFound)
        }
        return setupPage(token: token, offer: try flow.offer(for: record), error: nil)
    }

    func submitSetup(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let form = try await ConsoleForm.read(request)
        let (token, sealed) = (form["token"] ?? "", form["sealed"] ?? "")
        do {
            try await flow.completeSetup(
                token: token, password: form["password"] ?? "", confirmation: form["confirmation"] ?? "", sealedSecret: sealed,
                code: form["code"] ?? "", ip: context.clientIP)
            return pages.message("Setup complete", "You can now sign in.", error: false, link: ("/console/sign-in", "Sign in"), status: .ok)
        } catch let refusal as ConsoleRefusal {
            guard let record = try await flow.operatorToSetUp(token: token), let offer = try? flow.offer(for: record, sealed: sealed) else {
                return pages.message("Setup", refusal.message, status: .badRequest)
            }
            return setupPage(token: token, offer: offer, error: refusal.message, status: .badRequest)
        }
    }

    private func setupPage(token: String, offer: ConsoleSetupOffer, error: String?, status: HTTPResponse.Status = .ok) -> Response {
        var data: [String: Any] = [
            "email": offer.email, "token": token, "sealed": offer.sealedSecret, "secret": offer.secretText, "uri": offer.otpauthURI,
            "minLength": ConsoleFlow.minPasswordLength,
        ]
        if let error { data["error"] = error }
        return pages.page("setup", title: "Set up your console account", data, status: status)
    }
}
