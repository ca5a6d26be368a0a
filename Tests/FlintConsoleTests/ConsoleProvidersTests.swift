import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

/// The admin API's built-in provider resources.
private let defaultIdps = "/identitytoolkit.googleapis.com/v2/projects/\(project)/defaultSupportedIdpConfigs"

@Suite("The web console's sign-in providers")
struct ConsoleProvidersTests {
    @Test("every built-in provider is listed; a form saves the provider's resource, whose secret is never shown back")
    func saveProvider() async throws {
        try await withConsoleOperator { api, op in
            let page = try await api.console(.get, "/console/settings", cookie: op.cookie)
            for name in ["Google", "Apple", "Microsoft", "Yahoo", "Facebook", "GitHub", "X (Twitter)", "Google Play Games", "Game Center"] {
                #expect(page.text.contains(name), "\(name) missing")
            }
            let saved = try await api.console(
                .post, "/console/settings/providers",
                form: [
                    "csrf": op.csrf, "providerId": "github.com", "enabled-github-com": "true", "clientId": "Iv1.abc", "clientSecret": "gh-s3cret",
                ],
                cookie: op.cookie)
            #expect(saved.status == .seeOther && saved.headers[.location] == "/console/settings?saved=1#providers", "\(saved.text)")
            let resource = try await api.admin(.get, "\(defaultIdps)/github.com")
            #expect(resource["enabled"] == .bool(true) && resource.string("clientId") == "Iv1.abc" && resource.string("clientSecret") == "gh-s3cret")
            let shown = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(shown.text.contains("Iv1.abc") && !shown.text.contains("gh-s3cret"))
            // A blank secret keeps the stored one; turning the provider off keeps its credentials.
            _ = try await api.console(
                .post, "/console/settings/providers", form: ["csrf": op.csrf, "providerId": "github.com", "clientId": "Iv1.abc", "clientSecret": ""],
                cookie: op.cookie)
            let kept = try await api.admin(.get, "\(defaultIdps)/github.com")
            #expect(kept["enabled"] == .bool(false) && kept.string("clientSecret") == "gh-s3cret", "\(kept.text)")
            // Removing the secret clears it.
            _ = try await api.console(
                .post, "/console/settings/providers",
                form: ["csrf": op.csrf, "providerId": "github.com", "clientId": "Iv1.abc", "clearSecret-github-com": "true"], cookie: op.cookie)
            #expect(try await api.admin(.get, "\(defaultIdps)/github.com").string("clientSecret") == nil)
            let event = try #require(try await api.auditEvents("kind=CONFIG_CHANGED").first)
            #expect(event["actor"] == "ops@example.com" && event["detail"]?["updated"] == "github.com", "\(event)")
        }
    }

    @Test("Apple's form keeps its code-flow key and takes the apps' bundle IDs; an unknown provider and a bad value are refused")
    func appleAndRefusals() async throws {
        try await withConsoleOperator { api, op in
            let created = try await api.admin(
                .post, "\(defaultIdps)?idpId=apple.com",
                body:
                    #"{"enabled":true,"clientId":"com.example.signin","appleSignInConfig":{"codeFlowConfig":{"teamId":"T","keyId":"K","privateKey":"P"}}}"#
            )
            #expect(created.status == .ok, "\(created.text)")
            _ = try await api.console(
                .post, "/console/settings/providers",
                form: [
                    "csrf": op.csrf, "providerId": "apple.com", "enabled-apple-com": "true", "clientId": "com.example.signin",
                    "bundleIds": "com.example.app\ncom.example.other",
                ],
                cookie: op.cookie)
            let apple = try await api.admin(.get, "\(defaultIdps)/apple.com")
            #expect(apple["appleSignInConfig"]?["bundleIds"] == ["com.example.app", "com.example.other"], "\(apple.text)")
            #expect(apple["appleSignInConfig"]?["codeFlowConfig"]?["keyId"] == "K")

            let unknown = try await api.console(
                .post, "/console/settings/providers", form: ["csrf": op.csrf, "providerId": "myspace.com", "enabled-myspace-com": "true"],
                cookie: op.cookie)
            #expect(unknown.status == .badRequest)
            let bad = try await api.console(
                .post, "/console/settings/providers", form: ["csrf": op.csrf, "providerId": "yahoo.com", "enabled-yahoo-com": "maybe"],
                cookie: op.cookie)
            #expect(bad.status == .badRequest && bad.text.contains("role=\"alert\"") && bad.text.contains("enabled must be a boolean"), "\(bad.text)")
            let missing = try await api.admin(.get, "\(defaultIdps)/yahoo.com")
            #expect(missing.status == .notFound)
        }
    }

    @Test("a read-only operator sees the providers but no form, and its change is refused")
    func readOnly() async throws {
        try await withConsoleOperator(role: .read) { api, op in
            let page = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(page.text.contains("Sign-in providers") && !page.text.contains("action=\"/console/settings/providers\""))
            let reply = try await api.console(
                .post, "/console/settings/providers", form: ["csrf": op.csrf, "providerId": "google.com", "enabled-google-com": "true"],
                cookie: op.cookie)
            #expect(reply.status == .forbidden)
        }
    }
}
