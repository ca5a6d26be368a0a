import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

/// The admin API's resources of generic OIDC and SAML providers.
private let oidcIdps = "/identitytoolkit.googleapis.com/v2/projects/\(project)/oauthIdpConfigs"
private let samlIdps = "/identitytoolkit.googleapis.com/v2/projects/\(project)/inboundSamlConfigs"

@Suite("The web console's OIDC and SAML provider pages")
struct ConsoleIdentityProvidersTests {
    /// A new OIDC provider's form, filled.
    static func oidcForm(_ op: ConsoleOperator, _ fields: [String: String] = [:]) -> [String: String] {
        [
            "csrf": op.csrf, "providerId": "corp", "enabled": "true", "displayName": "Corp", "clientId": "corp-client",
            "clientSecret": "corp-s3cret", "issuer": "https://id.corp.example", "flow": "code",
        ].merging(fields) { $1 }
    }

    @Test("an OIDC provider is added, listed in the grid with its page, and changed; its secret is never shown back")
    func oidcLifecycle() async throws {
        try await withConsoleOperator { api, op in
            let settings = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(settings.text.contains(#"<a href="/console/providers/oidc">"#) && settings.text.contains(#"<a href="/console/providers/saml">"#))
            let form = try await api.console(.get, "/console/providers/oidc", cookie: op.cookie)
            #expect(form.status == .ok && form.text.contains(#"name="providerId""#) && form.text.contains("/__/auth/handler"), "\(form.text)")

            let added = try await api.console(.post, "/console/providers/oidc", form: Self.oidcForm(op), cookie: op.cookie)
            #expect(added.status == .seeOther && added.headers[.location] == "/console/providers/oidc.corp?saved=1", "\(added.text)")
            let resource = try await api.admin(.get, "\(oidcIdps)/oidc.corp")
            #expect(resource.string("clientId") == "corp-client" && resource.string("clientSecret") == "corp-s3cret", "\(resource.text)")
            #expect(resource["responseType"] == ["code": true, "idToken": false] && resource["enabled"] == .bool(true))
            let page = try await api.console(.get, "/console/providers/oidc.corp?saved=1", cookie: op.cookie)
            #expect(page.text.contains("Saved.") && page.text.contains("https://id.corp.example") && !page.text.contains("corp-s3cret"))
            #expect(page.text.contains("Client secret (set: blank keeps it)"))
            let grid = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(grid.text.contains(#"<a href="/console/providers/oidc.corp">Corp</a>"#), "the grid's row links to its page")

            // A blank secret keeps the stored one; the other fields change; turned off.
            let kept = try await api.console(
                .post, "/console/providers/oidc.corp",
                form: ["csrf": op.csrf, "displayName": "Corp SSO", "clientId": "corp-2", "issuer": "https://id2.corp.example", "flow": "idToken"],
                cookie: op.cookie)
            #expect(kept.status == .seeOther, "\(kept.text)")
            let changed = try await api.admin(.get, "\(oidcIdps)/oidc.corp")
            #expect(changed.string("clientSecret") == "corp-s3cret" && changed.string("clientId") == "corp-2" && changed["enabled"] == .bool(false))
            #expect(changed["responseType"] == ["code": false, "idToken": true] && changed.string("displayName") == "Corp SSO")
            // A new secret replaces it; "remove the stored secret" clears it.
            _ = try await api.console(
                .post, "/console/providers/oidc.corp", form: Self.oidcForm(op, ["clientSecret": "rotated"]), cookie: op.cookie)
            #expect(try await api.admin(.get, "\(oidcIdps)/oidc.corp").string("clientSecret") == "rotated")
            _ = try await api.console(
                .post, "/console/providers/oidc.corp", form: Self.oidcForm(op, ["clientSecret": "", "clearSecret": "true"]), cookie: op.cookie)
            #expect(try await api.admin(.get, "\(oidcIdps)/oidc.corp").string("clientSecret") == nil)

            let events = try await api.auditEvents("kind=CONFIG_CHANGED")
            #expect(events.contains { $0["actor"] == "ops@example.com" && $0["detail"]?["created"] == "oidc.corp" }, "\(events)")
            #expect(events.contains { $0["actor"] == "ops@example.com" && $0["detail"]?["updated"] == "oidc.corp" })
        }
    }

    @Test(
        "a refused OIDC form shows Identity Platform's error beside its field and keeps the typed values, but never the secret",
        arguments: [
            (["issuer": "not a url"], "issuer", "issuer must be an absolute http(s) URL"),
            (["clientId": ""], "clientId", "clientId is required"),
            (["providerId": "bad id!"], "providerId", "INVALID_PROVIDER_ID"),
        ] as [([String: String], String, String)])
    func oidcRefusals(fields: [String: String], field: String, message: String) async throws {
        try await withConsoleOperator { api, op in
            let reply = try await api.console(.post, "/console/providers/oidc", form: Self.oidcForm(op, fields), cookie: op.cookie)
            #expect(reply.status == .badRequest, "\(reply.text)")
            #expect(reply.text.contains(#"<p class="error" id="\#(field)-error" role="alert">"#) && reply.text.contains(message), "\(reply.text)")
            #expect(reply.text.contains(#"aria-describedby="\#(field)-error""#))
            #expect(reply.text.contains(#"value="Corp""#) && !reply.text.contains("corp-s3cret"), "typed values kept, the secret not")
            #expect(try await api.admin(.get, oidcIdps)["oauthIdpConfigs"] == nil, "nothing was saved")
        }
    }

    @Test("a taken provider ID is refused beside its field; an unknown provider's page is not found")
    func takenAndUnknown() async throws {
        try await withConsoleOperator { api, op in
            _ = try await api.console(.post, "/console/providers/oidc", form: Self.oidcForm(op), cookie: op.cookie)
            let again = try await api.console(.post, "/console/providers/oidc", form: Self.oidcForm(op), cookie: op.cookie)
            #expect(again.status == .badRequest && again.text.contains("CONFIGURATION_EXISTS") && again.text.contains(#"id="providerId-error""#))
            #expect(try await api.console(.get, "/console/providers/oidc.nobody", cookie: op.cookie).status == .notFound)
            #expect(try await api.console(.get, "/console/providers/google.com", cookie: op.cookie).status == .notFound)
            let missing = try await api.console(.post, "/console/providers/saml.nobody", form: ["csrf": op.csrf], cookie: op.cookie)
            #expect(missing.status == .notFound)
        }
    }

    @Test("a SAML provider is added with its PEM certificates, shows what to give the identity provider, and is deleted after a confirmation")
    func samlLifecycle() async throws {
        try await withConsoleOperator { api, op in
            let form = try await api.console(.get, "/console/providers/saml", cookie: op.cookie)
            #expect(form.text.contains("/__/auth/handler") && form.text.contains(#"name="certificates""#), "the callback is proposed")
            let fields = [
                "csrf": op.csrf, "providerId": "saml.corp", "enabled": "true", "displayName": "Corp SAML",
                "idpEntityId": "https://idp.example/entity",
                "ssoUrl": "https://idp.example/sso", "certificates": SAMLFixture.certificate + "\n" + SAMLFixture.certificate, "signRequest": "true",
                "spEntityId": "flint-sp", "callbackUri": "https://auth.example/__/auth/handler",
            ]
            let added = try await api.console(.post, "/console/providers/saml", form: fields, cookie: op.cookie)
            #expect(added.status == .seeOther && added.headers[.location] == "/console/providers/saml.corp?saved=1", "\(added.text)")
            let resource = try await api.admin(.get, "\(samlIdps)/saml.corp")
            #expect(resource["idpConfig"]?["idpCertificates"]?.arrayValue?.count == 2 && resource["idpConfig"]?["signRequest"] == .bool(true))
            #expect(resource["spConfig"]?["spEntityId"] == "flint-sp", "\(resource.text)")
            let page = try await api.console(.get, "/console/providers/saml.corp", cookie: op.cookie)
            #expect(page.text.contains("For the identity provider") && page.text.contains("<code>https://auth.example/__/auth/handler</code>"))
            // The SP certificate the admin API answers, to copy to the identity provider.
            let spCertificate = try #require(resource["spConfig"]?["spCertificates"]?.arrayValue?.first?["x509Certificate"]?.stringValue)
            #expect(page.text.contains(#"<pre class="claims uri" id="spCertificate">"# + spCertificate), "\(page.text)")
            let grid = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(grid.text.contains(#"<a href="/console/providers/saml.corp">Corp SAML</a>"#) && grid.text.contains("2 IdP certificates"))

            // Turned off from the grid's switch, as every provider.
            let off = try await api.console(
                .post, "/console/settings/provider-state", form: ["csrf": op.csrf, "providerId": "saml.corp", "enabled": "false"], cookie: op.cookie)
            #expect(off.status == .seeOther)
            #expect(try await api.admin(.get, "\(samlIdps)/saml.corp")["enabled"] == .bool(false))

            // A certificate that is not one, and no service provider entity ID, are refused beside their fields.
            let bad = try await api.console(
                .post, "/console/providers/saml.corp", form: fields.merging(["certificates": "not a certificate"]) { $1 }, cookie: op.cookie)
            #expect(bad.status == .badRequest && bad.text.contains(#"id="certificates-error""#) && bad.text.contains("X.509 certificate in PEM"))
            let noSP = try await api.console(
                .post, "/console/providers/saml.corp", form: fields.merging(["spEntityId": ""]) { $1 }, cookie: op.cookie)
            #expect(noSP.text.contains(#"id="spEntityId-error""#) && noSP.text.contains("MISSING_SAML_RELYING_PARTY_CONFIG"), "\(noSP.text)")

            let confirm = try await api.console(.post, "/console/providers/saml.corp/delete", form: ["csrf": op.csrf], cookie: op.cookie)
            #expect(confirm.status == .ok && confirm.text.contains("Delete saml.corp?"))
            #expect(try await api.admin(.get, "\(samlIdps)/saml.corp").status == .ok, "nothing deleted before the confirmation")
            let deleted = try await api.console(
                .post, "/console/providers/saml.corp/delete", form: ["csrf": op.csrf, "confirmed": "yes"], cookie: op.cookie)
            #expect(deleted.status == .seeOther && deleted.headers[.location] == "/console/settings?removed=saml.corp#sign-in-methods")
            #expect(try await api.admin(.get, "\(samlIdps)/saml.corp").status == .notFound)
            #expect(try await api.console(.get, "/console/settings?removed=saml.corp", cookie: op.cookie).text.contains("saml.corp deleted."))
            let events = try await api.auditEvents("kind=CONFIG_CHANGED")
            #expect(events.contains { $0["actor"] == "ops@example.com" && $0["detail"]?["deleted"] == "saml.corp" }, "\(events)")
        }
    }

    @Test("every change needs the session's CSRF token")
    func csrf() async throws {
        try await withConsoleOperator { api, op in
            let forged = try await api.console(.post, "/console/providers/oidc", form: Self.oidcForm(op, ["csrf": "forged"]), cookie: op.cookie)
            #expect(forged.status == .forbidden && forged.text.contains("The form is stale"))
            _ = try await api.admin(.post, "\(samlIdps)?inboundSamlConfigId=saml.corp", body: SAMLFixture.body())
            let delete = try await api.console(.post, "/console/providers/saml.corp/delete", form: ["confirmed": "yes"], cookie: op.cookie)
            #expect(delete.status == .forbidden)
            #expect(try await api.admin(.get, "\(samlIdps)/saml.corp").status == .ok, "nothing deleted")
        }
    }

    @Test("a read-only operator sees a provider's values but no form, not its secret, and its changes are refused")
    func readOnly() async throws {
        try await withConsoleOperator(role: .read) { api, op in
            _ = try await api.admin(
                .post, "\(oidcIdps)?oauthIdpConfigId=oidc.corp",
                body: #"{"enabled":true,"clientId":"corp-client","clientSecret":"corp-s3cret","issuer":"https://id.corp.example"}"#)
            _ = try await api.admin(.post, "\(samlIdps)?inboundSamlConfigId=saml.corp", body: SAMLFixture.body())
            let oidc = try await api.console(.get, "/console/providers/oidc.corp", cookie: op.cookie)
            #expect(oidc.status == .ok && oidc.text.contains("corp-client") && oidc.text.contains("https://id.corp.example"))
            #expect(!oidc.text.contains("<form method=\"post\" action=\"/console/providers") && !oidc.text.contains("corp-s3cret"))
            let saml = try await api.console(.get, "/console/providers/saml.corp", cookie: op.cookie)
            #expect(
                saml.text.contains("https://idp.example/sso") && saml.text.contains("BEGIN CERTIFICATE") && !saml.text.contains(#"name="ssoUrl""#))
            #expect(try await api.console(.get, "/console/providers/oidc", cookie: op.cookie).status == .forbidden)
            let refused = try await api.console(.post, "/console/providers/oidc.corp", form: Self.oidcForm(op), cookie: op.cookie)
            #expect(refused.status == .forbidden)
            let delete = try await api.console(
                .post, "/console/providers/saml.corp/delete", form: ["csrf": op.csrf, "confirmed": "yes"], cookie: op.cookie)
            #expect(delete.status == .forbidden)
            #expect(try await api.admin(.get, "\(samlIdps)/saml.corp").status == .ok, "nothing deleted")
        }
    }
}
