import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

/// The admin API's built-in provider resources.
private let defaultIdps = "/identitytoolkit.googleapis.com/v2/projects/\(project)/defaultSupportedIdpConfigs"

extension ConsoleOperator {
    /// Where a page's `<meta http-equiv="refresh">` goes, as written in the page.
    static func refreshTarget(_ page: String) -> String? {
        guard let start = page.range(of: #"<meta http-equiv="refresh" content="0;url="#) else { return nil }
        return String(page[start.upperBound...].prefix { $0 != "\"" })
    }
}

extension API {
    /// Creates the built-in provider `id`'s resource from `json`.
    fileprivate func createIdp(_ id: String, _ json: String) async throws {
        let reply = try await admin(.post, "\(defaultIdps)?idpId=\(id)", body: json)
        #expect(reply.status == .ok, "\(reply.text)")
    }
}

@Suite("The console's sign-in methods grid, second factors by method, and a provider's test sign-in")
struct ConsoleProviderGridTests {
    /// The grid's row of `id`, as the page renders it.
    static func row(_ page: String, _ id: String) -> String? {
        page.components(separatedBy: "<tr>").first { $0.contains(#"<span class="muted">\#(id)</span></td>"#) }
    }

    @Test("every method Flint serves is a row: icon and name, state, credentials, second factor, and its switch, edit link and test")
    func grid() async throws {
        try await withConsoleOperator { api, op in
            try await api.createIdp("github.com", #"{"enabled":true,"clientId":"Iv1.abc","clientSecret":"s3cret"}"#)
            try await api.createIdp("google.com", #"{"enabled":false,"clientId":"g-client"}"#)
            let page = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(page.status == .ok)
            for id in [
                "password", "emailLink", "phone", "anonymous", "google.com", "apple.com", "microsoft.com", "yahoo.com", "facebook.com",
                "github.com", "twitter.com", "playgames.google.com", "gc.apple.com",
            ] {
                let row = try #require(Self.row(page.text, id), "\(id) has no row")
                #expect(row.contains(#"<svg class="icon""#), "\(id) has no icon")
            }
            let github = try #require(Self.row(page.text, "github.com"))
            #expect(github.contains(#"<span class="tag">on</span>"#) && github.contains("client ID and secret set"))
            #expect(github.contains(#"action="/console/provider-test""#) && github.contains("Turn off<span class=\"visually-hidden\"> GitHub</span>"))
            #expect(github.contains(#"href="/console/settings?edit=github-com#provider-github-com""#))
            let google = try #require(Self.row(page.text, "google.com"))
            #expect(google.contains("client ID set, no secret") && !google.contains("/console/provider-test") && google.contains("Turn on"))
            let gameCenter = try #require(Self.row(page.text, "gc.apple.com"))
            #expect(gameCenter.contains("none needed") && gameCenter.contains("not configured") && !gameCenter.contains("Test sign-in"))
            #expect(try #require(Self.row(page.text, "phone")).contains("never (cannot carry one)"))
            #expect(try #require(Self.row(page.text, "password")).contains("off (MFA disabled)"))
            // The grid's Edit opens that provider's form.
            let editing = try await api.console(.get, "/console/settings?edit=github-com", cookie: op.cookie)
            #expect(editing.text.contains(#"<details class="card" id="provider-github-com" open>"#))
        }
    }

    @Test("the switch turns a method or provider on and off through the config API, audited; email link follows passwordRequired")
    func switches() async throws {
        try await withConsoleOperator { api, op in
            func flip(_ id: String, _ on: Bool) async throws {
                let reply = try await api.console(
                    .post, "/console/settings/provider-state", form: ["csrf": op.csrf, "providerId": id, "enabled": on ? "true" : "false"],
                    cookie: op.cookie)
                #expect(reply.status == .seeOther && reply.headers[.location] == "/console/settings?saved=1#sign-in-methods", "\(reply.text)")
            }
            try await flip("phone", false)
            #expect(try await api.admin(.get, Path.config)["signIn"]?["phoneNumber"]?["enabled"] == .bool(false))
            try await flip("emailLink", false)
            #expect(try await api.admin(.get, Path.config)["signIn"]?["email"]?["passwordRequired"] == .bool(true))
            try await flip("password", false)
            try await flip("emailLink", true)
            let email = try await api.admin(.get, Path.config)["signIn"]?["email"]
            #expect(email?["enabled"] == .bool(true) && email?["passwordRequired"] == .bool(false), "an email link needs email sign-in on")
            try await flip("anonymous", true)
            #expect(try await api.admin(.get, Path.config)["signIn"]?["anonymous"]?["enabled"] == .bool(true))
            try await flip("github.com", true)
            #expect(try await api.admin(.get, "\(defaultIdps)/github.com")["enabled"] == .bool(true))
            let events = try await api.auditEvents("kind=CONFIG_CHANGED")
            #expect(events.count >= 6 && events.allSatisfy { $0["actor"] == "ops@example.com" })
            let unknown = try await api.console(
                .post, "/console/settings/provider-state", form: ["csrf": op.csrf, "providerId": "saml.x", "enabled": "true"], cookie: op.cookie)
            #expect(unknown.status == .badRequest)
            let stale = try await api.console(
                .post, "/console/settings/provider-state", form: ["providerId": "phone", "enabled": "true"], cookie: op.cookie)
            #expect(stale.status == .forbidden, "no CSRF token")
        }
    }

    @Test("second factor by method: the form saves flint.mfaFirstFactors, the grid says what each method asks, a bad value is refused")
    func secondFactorByMethod() async throws {
        try await withConsoleOperator { api, op in
            try await api.patchConfig(#"{"mfa":{"state":"ENABLED","enabledProviders":["PHONE_SMS"]}}"#, mask: "mfa")
            try await api.createIdp("github.com", #"{"enabled":true,"clientId":"Iv1.abc","clientSecret":"s3cret"}"#)
            let form = ["csrf": op.csrf, "mfa:password": "MANDATORY", "mfa:github.com": "DISABLED", "mfa:google.com": ""]
            let saved = try await api.console(.post, "/console/settings/mfa-first-factors", form: form, cookie: op.cookie)
            #expect(saved.status == .seeOther, "\(saved.text)")
            let config = try await api.admin(.get, Path.config)
            #expect(config["flint"]?["mfaFirstFactors"] == ["password": "MANDATORY", "github.com": "DISABLED"], "\(config.text)")
            let page = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(try #require(Self.row(page.text, "password")).contains("must enrol"))
            #expect(try #require(Self.row(page.text, "emailLink")).contains("must enrol"), "email links share password's")
            #expect(try #require(Self.row(page.text, "github.com")).contains("not asked"))
            #expect(try #require(Self.row(page.text, "google.com")).contains("asked when enrolled"))
            #expect(page.text.contains(#"<select id="mfa-github-com" name="mfa:github.com">"#))
            let bad = try await api.console(
                .post, "/console/settings/mfa-first-factors", form: ["csrf": op.csrf, "mfa:password": "SOMETIMES"], cookie: op.cookie)
            #expect(bad.status == .badRequest && bad.text.contains("flint.mfaFirstFactors.password must be one of"))
        }
    }

    @Test("a test sign-in starts at the project's handler with a session of its own; its result page shows the outcome, audited")
    func testSignIn() async throws {
        try await withConsoleOperator { api, op in
            try await api.createIdp("github.com", #"{"enabled":true,"clientId":"Iv1.abc","clientSecret":"s3cret"}"#)
            let refused = try await api.console(
                .post, "/console/provider-test", form: ["csrf": op.csrf, "providerId": "github.com"], cookie: op.cookie)
            #expect(refused.status == .badRequest && refused.text.contains("not one of the authorized domains"))
            try await api.patchConfig(#"{"authorizedDomains":["localhost","127.0.0.1"]}"#, mask: "authorizedDomains")
            let start = try await api.console(
                .post, "/console/provider-test", form: ["csrf": op.csrf, "providerId": "github.com"], cookie: op.cookie)
            // A page that goes on to the handler by itself (a form's answer may not redirect to the provider's origin).
            #expect(start.status == .ok, "\(start.text)")
            let refresh = try #require(ConsoleOperator.refreshTarget(start.text))
            let location = refresh.replacingOccurrences(of: "&amp;", with: "&")
            #expect(
                location.hasPrefix("/__/auth/handler?") && location.contains("authType=signInViaRedirect")
                    && location.contains("providerId=github.com"))
            #expect(location.contains("redirectUrl=http%3A%2F%2F127.0.0.1%3A0%2Fconsole%2Fprovider-test%2Fresult"))
            let cookie = try #require(start.headers[.setCookie])
            #expect(cookie.hasPrefix("flint_console_provider_test=") && cookie.contains("SameSite=Lax") && cookie.contains("HttpOnly"))
            let sessionID = String(cookie.dropFirst("flint_console_provider_test=".count).prefix { $0 != ";" })
            let sessionHash = try #require(location.split(separator: "&").first { $0.hasPrefix("sessionId=") }?.dropFirst(10))
            #expect(String(sessionHash) == ProviderNonceRule.sha256Hex(sessionID))
            // The handler itself takes the start: the browser goes on to GitHub.
            let handler = try await api.call(.get, location)
            #expect(handler.status == .seeOther && handler.headers[.location]?.hasPrefix("https://github.com/") == true)

            // Back from the provider: the cross-site redirect carries no console session, so one same-site step more.
            let error = ConsoleRoutes.encode(#"{"code":"auth/user-cancelled","message":"The identity provider answered access_denied."}"#)
            let hop = try await api.console(.get, "/console/provider-test/result?firebaseError=\(error)")
            let back = try #require(ConsoleOperator.refreshTarget(hop.text))
            #expect(hop.status == .ok && back.hasPrefix("/console/provider-test/result?firebaseError=") && back.hasSuffix("&amp;hop=1"))
            let result = try await api.console(
                .get, "/console/provider-test/result?firebaseError=\(error)&hop=1", cookie: op.cookie + "; flint_console_provider_test=\(sessionID)")
            #expect(result.status == .ok && result.text.contains("The test sign-in failed: The identity provider answered access_denied."))
            #expect(result.headers[.setCookie]?.contains("Max-Age=0") == true, "the test's cookie is cleared")
            let forged = try await api.console(
                .get, "/console/provider-test/result?link=" + ConsoleRoutes.encode("http://127.0.0.1:0/__/auth/handler?code=c&state=forged"),
                cookie: op.cookie + "; flint_console_provider_test=\(sessionID)")
            #expect(forged.text.contains("The test sign-in failed") && forged.text.contains("not valid or has expired"), "\(forged.text)")
            let events = try await api.auditEvents("kind=ADMIN_ACTION")
            let results = events.filter { $0["detail"]?["action"] == "testProviderSignIn" }.compactMap { $0["detail"]?["result"]?.stringValue }
            #expect(Set(results) == ["auth/user-cancelled", "INVALID_IDP_RESPONSE"], "\(events)")
        }
    }

    @Test("a read-only operator sees the grid's values only, and its switch and test are refused")
    func readOnly() async throws {
        try await withConsoleOperator(role: .read) { api, op in
            let page = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(page.text.contains("Sign-in methods") && !page.text.contains("/console/settings/provider-state"))
            #expect(!page.text.contains("/console/provider-test") && !page.text.contains("/console/settings/mfa-first-factors"))
            let flip = try await api.console(
                .post, "/console/settings/provider-state", form: ["csrf": op.csrf, "providerId": "phone", "enabled": "false"], cookie: op.cookie)
            #expect(flip.status == .forbidden)
            let test = try await api.console(.post, "/console/provider-test", form: ["csrf": op.csrf, "providerId": "github.com"], cookie: op.cookie)
            #expect(test.status == .forbidden)
        }
    }
}
