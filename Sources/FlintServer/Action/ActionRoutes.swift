import FlintCore
import FlintStore
import FlintTexts
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Flint's action page, `/__/auth/action`: where emailed links point. A GET never uses a code (mail scanners
/// open links): for `signIn` it hands over to the app or the continue URL, which then calls
/// `signInWithEmailLink`; for `verifyEmail`, `verifyAndChangeEmail` (confirming the new address), `recoverEmail`
/// (restoring the old one) and `resetPassword` it shows a form whose POST acts. A link acts in its code's tenant: the
/// page runs in that tenant's ``TenantScope``.
struct ActionRoutes {
    let codes: ActionCodes
    let tenants: TenantCache
    static let path = "/__/auth/action"

    func show(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let params = ActionParameters(
            mode: query["mode"].map(String.init), oobCode: query["oobCode"].map(String.init), apiKey: query["apiKey"].map(String.init),
            continueURL: query["continueUrl"].map(String.init), lang: query["lang"].map(String.init))
        let locales = locales(request, lang: params.lang)
        return await inTenant(ofCode: params.oobCode) { await actionPage(params, locales: locales) }
    }

    /// Runs `body` in the tenant of the code `text` (the default one for a default-tenant code or one that is not
    /// found, where the page refuses it as before; a code whose tenant is gone stays in the default one, where it
    /// is refused as another tenant's).
    private func inTenant(ofCode text: String?, _ body: () async -> Response) async -> Response {
        guard let text, !text.isEmpty,
            let record = try? await codes.node.store.read({ try await $0.oobCode(hash: storedTokenHash(text)) }), !record.tenant.isDefault,
            let tenant = try? await tenants.tenant(record.tenant.rawValue),
            let settings = try? tenants.settings(of: record.tenant.rawValue, tenant, over: codes.node.config.project)
        else { return await body() }
        return await TenantScope.run(in: record.tenant, settings: settings, body)
    }

    func submit(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let fields: [String: String]
        do {
            let buffer = try await request.body.collect(upTo: 64 * 1024)
            fields = FormDecoding.decode(String(buffer: buffer))
        } catch {
            fields = [:]
        }
        let params = ActionParameters(
            mode: fields["mode"], oobCode: fields["oobCode"], apiKey: fields["apiKey"], continueURL: fields["continueUrl"], lang: fields["lang"])
        let locales = locales(request, lang: params.lang)
        return await inTenant(ofCode: params.oobCode) { await actionSubmit(params, newPassword: fields["newPassword"], locales: locales) }
    }

    private func locales(_ request: Request, lang: String?) -> [String] {
        LocaleNegotiation.candidates(firebaseLocale: lang, acceptLanguage: request.headers[.acceptLanguage])
    }
}

/// The query (or form) of an action link.
struct ActionParameters: Sendable {
    var mode: String?
    /// The action `mode` names (`resetPassword` is a password reset); `nil` for an unknown mode.
    var action: EmailAction? { EmailAction.allCases.first { ActionCodes.mode(of: $0) == mode } }
    var oobCode: String?
    var apiKey: String?
    var continueURL: String?
    var lang: String?

    /// The fields a confirming form carries back.
    var hidden: [(name: String, value: String)] {
        [("mode", mode), ("oobCode", oobCode), ("apiKey", apiKey), ("continueUrl", continueURL), ("lang", lang)].compactMap { name, value in
            value.map { (name, $0) }
        }
    }
}

extension ActionRoutes {
    func actionPage(_ p: ActionParameters, locales: [String]) async -> Response {
        let app = codes.node.appName
        guard let action = p.action, let code = p.oobCode, !code.isEmpty else {
            return Self.page(ActionPage.failure(locale: locales, app: app, reason: .badRequest), status: .badRequest)
        }
        if let failure = await codeFailure(code, action, locales: locales) { return failure }
        switch action {
        case .signIn:
            // The continue URL gets the link's parameters, as Firebase's handler passes them on; the app (or web
            // page) there calls signInWithEmailLink.
            var continueURL: String?
            if let target = authorizedContinueURL(p) {
                var parameters = [("apiKey", p.apiKey ?? ""), ("oobCode", code), ("mode", "signIn"), ("lang", p.lang ?? "en")]
                // The page runs in the code's tenant: the app signs in there.
                if !TenantID.scoped.isDefault { parameters.append(("tenantId", TenantID.scoped.rawValue)) }
                let query = URLQuery.encode(parameters)
                continueURL = target + (target.contains("?") ? "&" : "?") + query
            }
            return Self.page(ActionPage.signIn(locale: locales, app: app, continueURL: continueURL))
        case .verifyEmail, .verifyAndChangeEmail, .recoverEmail:
            // Confirming the address: verifying it, making it the account's new one, or (recovery) putting it back.
            let email = await emailShown(code, action)
            return Self.page(ActionPage.confirmEmail(locale: locales, app: app, email: email, formAction: ActionRoutes.path, hidden: p.hidden))
        case .passwordReset:
            let email = await emailShown(code, action)
            return Self.page(
                ActionPage.resetPassword(
                    locale: locales, app: app, email: email, formAction: ActionRoutes.path, hidden: p.hidden, error: nil,
                    rules: codes.node.config.current.enforcedPasswordPolicy?.rules ?? []))
        }
    }

    func actionSubmit(_ p: ActionParameters, newPassword: String?, locales: [String]) async -> Response {
        let app = codes.node.appName
        guard let action = p.action, let code = p.oobCode, !code.isEmpty else {
            return Self.page(ActionPage.failure(locale: locales, app: app, reason: .badRequest), status: .badRequest)
        }
        let continueURL = authorizedContinueURL(p)
        do {
            let outcome: ActionPage.Outcome
            switch action {
            case .signIn:
                // A sign-in link is used by the app (signInWithEmailLink), never by a form.
                return Self.page(ActionPage.failure(locale: locales, app: app, reason: .badRequest), status: .badRequest)
            case .verifyEmail:
                _ = try await codes.applyEmailVerification(code: code)
                outcome = .emailVerified
            case .verifyAndChangeEmail:
                _ = try await codes.applyEmailChange(code: code, locales: locales)
                outcome = .emailChanged
            case .recoverEmail:
                _ = try await codes.applyEmailRecovery(code: code)
                outcome = .emailChanged
            case .passwordReset:
                let record = try await codes.peekOobCode(code, expecting: [.passwordReset])
                let rules = codes.node.config.current.newPasswordRules
                let policy = rules.policy
                do throws(AuthError) {
                    // A password in the breach corpus is shown as too weak, a sentence the page has in every locale.
                    try await codes.passwords.checkNew(newPassword ?? "", rules: rules)
                } catch {
                    let missed = policy?.unmet(newPassword ?? "") ?? []
                    return Self.page(
                        ActionPage.resetPassword(
                            locale: locales, app: app, email: record.email, formAction: ActionRoutes.path, hidden: p.hidden,
                            error: missed.isEmpty ? .weakPassword : .unmetRequirements(missed), rules: policy?.rules ?? []),
                        status: .badRequest)
                }
                let hash = try await codes.passwords.hash(newPassword ?? "")
                _ = try await codes.applyPasswordReset(code: code, hash: hash)
                outcome = .passwordChanged
            }
            return Self.page(ActionPage.done(locale: locales, app: app, outcome: outcome, continueURL: continueURL))
        } catch let error as AuthError {
            let reason: ActionPage.Failure = error == .expiredOobCode ? .expiredLink : .invalidLink
            return Self.page(ActionPage.failure(locale: locales, app: app, reason: reason), status: .badRequest)
        } catch {
            codes.node.logger.error("action page failed", metadata: ["errorType": "\(type(of: error))"])
            return Self.page(ActionPage.failure(locale: locales, app: app, reason: .invalidLink), status: .internalServerError)
        }
    }

    /// The link's continue URL when it is on an authorized domain.
    private func authorizedContinueURL(_ p: ActionParameters) -> String? {
        p.continueURL.flatMap { ContinueURL($0)?.isAuthorized(by: codes.node.config.current.authorizedDomains) == true ? $0 : nil }
    }

    /// The address a page shows for a code that was just found usable; empty (and logged) if reading it again fails.
    private func emailShown(_ code: String, _ action: EmailAction) async -> String {
        do {
            return try await codes.peekOobCode(code, expecting: [action]).email
        } catch {
            codes.node.logger.warning("action page could not read its code again", metadata: ["errorType": "\(type(of: error))"])
            return ""
        }
    }

    /// The failure page when a code cannot be used (read only).
    private func codeFailure(_ code: String, _ action: EmailAction, locales: [String]) async -> Response? {
        do {
            _ = try await codes.peekOobCode(code, expecting: [action])
            return nil
        } catch let error as AuthError where error == .expiredOobCode {
            return Self.page(ActionPage.failure(locale: locales, app: codes.node.appName, reason: .expiredLink), status: .badRequest)
        } catch {
            return Self.page(ActionPage.failure(locale: locales, app: codes.node.appName, reason: .invalidLink), status: .badRequest)
        }
    }

    /// The action pages' content policy: no script at all.
    static let pagePolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'"

    /// An HTML answer that is never cached, framed, or leaks its URL (which holds the code) as a referrer, under
    /// `policy` (the action pages' by default; the hosted handler's pages give theirs).
    static func page(_ html: String, status: HTTPResponse.Status = .ok, policy: String = pagePolicy) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[.contentSecurityPolicy] = policy
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
