import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

/// One settings form in a test: a valid submission and what the admin API's config then holds at `path`, and an
/// invalid one with the field its error belongs to and the error's text.
struct SettingsCase: Sendable, CustomTestStringConvertible {
    let group: String
    let valid: [String: String]
    let path: [String]
    let expected: JSONValue
    let invalid: [String: String]
    let field: String
    let message: String

    var testDescription: String { group }

    static let all: [SettingsCase] = [
        SettingsCase(
            group: "phone", valid: ["appVerification": "OFF"], path: ["signIn", "phoneNumber"],
            expected: ["enabled": false, "appVerification": "OFF", "testPhoneNumbers": [:]],
            invalid: ["phoneEnabled": "true", "appVerification": "SOMETIMES"], field: "appVerification",
            message: "signIn.phoneNumber.appVerification must be one of ENFORCE, OFF"),
        SettingsCase(
            group: "phone", valid: ["phoneEnabled": "true", "defaultPhoneRegion": "gb"], path: ["flint", "defaultPhoneRegion"], expected: "GB",
            invalid: ["phoneEnabled": "true", "defaultPhoneRegion": "ZZ"], field: "defaultPhoneRegion",
            message: "flint.defaultPhoneRegion must be a two-letter ISO 3166 region code with a phone calling code, such as US"),
        SettingsCase(
            group: "email", valid: ["emailEnabled": "true", "passwordRequired": "true"], path: ["signIn", "email"],
            expected: ["enabled": true, "passwordRequired": true], invalid: ["emailEnabled": "yes"], field: "emailEnabled",
            message: "signIn.email.enabled must be a boolean"),
        SettingsCase(
            group: "anonymous", valid: ["anonymousEnabled": "true"], path: ["signIn", "anonymous"], expected: ["enabled": true],
            invalid: ["anonymousEnabled": "1"], field: "anonymousEnabled", message: "signIn.anonymous.enabled must be a boolean"),
        SettingsCase(
            group: "mfa", valid: ["mfaState": "ENABLED", "smsFactor": "true", "totpFactor": "true", "adjacentIntervals": "3"], path: ["mfa"],
            expected: [
                "state": "ENABLED", "enabledProviders": ["PHONE_SMS"],
                "providerConfigs": [["state": "ENABLED", "totpProviderConfig": ["adjacentIntervals": .number(3)]]],
            ],
            invalid: ["mfaState": "ENABLED", "totpFactor": "true", "adjacentIntervals": "11"], field: "adjacentIntervals",
            message: "mfa.providerConfigs[0].totpProviderConfig.adjacentIntervals must be an integer from 0 to 10"),
        SettingsCase(
            group: "domains", valid: ["domain": "App.Example.com"], path: ["authorizedDomains"], expected: ["localhost", "app.example.com"],
            invalid: ["domain": "bad domain!"], field: "domain", message: "authorizedDomains has an invalid domain"),
        SettingsCase(
            group: "app-links", valid: ["mobileLinksDomain": "HOSTING_DOMAIN"], path: ["mobileLinksConfig"],
            expected: ["domain": "HOSTING_DOMAIN"], invalid: ["mobileLinksDomain": "ELSEWHERE"], field: "mobileLinksDomain",
            message: "mobileLinksConfig.domain must be HOSTING_DOMAIN or FIREBASE_DYNAMIC_LINK_DOMAIN"),
        SettingsCase(
            group: "ios-apps", valid: ["teamId": "ABCDE12345", "bundleIds": "com.example.app\r\ncom.example.other"], path: ["flint", "appLinks"],
            expected: ["apple": ["teamId": "ABCDE12345", "bundleIds": ["com.example.app", "com.example.other"]]],
            invalid: ["teamId": "short", "bundleIds": "com.example.app"], field: "teamId",
            message: "flint.appLinks.apple.teamId must be a 10-character Apple team ID"),
        SettingsCase(
            group: "android-apps", valid: ["packageName": "com.example.app", "fingerprints": fingerprint], path: ["flint", "appLinks"],
            expected: ["android": [["packageName": "com.example.app", "sha256CertFingerprints": [.string(fingerprint)]]]],
            invalid: ["packageName": "com.example.app", "fingerprints": "AA:BB"], field: "fingerprints",
            message: "flint.appLinks.android[].sha256CertFingerprints must list SHA-256 fingerprints (AA:BB:...)"),
        SettingsCase(
            group: "link-domains", valid: ["linkDomain": "links.example.com"], path: ["flint", "linkDomains"], expected: ["links.example.com"],
            invalid: ["linkDomain": "bad domain!"], field: "linkDomain", message: "flint.linkDomains must be a list of host names"),
    ]

    /// A well-formed SHA-256 certificate fingerprint.
    static let fingerprint = (0..<32).map { i in
        let hex = String(i * 7 % 256, radix: 16, uppercase: true)
        return hex.count == 1 ? "0" + hex : hex
    }.joined(separator: ":")
}

@Suite("The web console's settings page")
struct ConsoleSettingsTests {
    @Test("a valid change lands in the config the admin API shows, audited as CONFIG_CHANGED by the operator", arguments: SettingsCase.all)
    func validChange(_ test: SettingsCase) async throws {
        try await withConsoleOperator { api, op in
            var form = test.valid
            form["csrf"] = op.csrf
            let reply = try await api.console(.post, "/console/settings/\(test.group)", form: form, cookie: op.cookie)
            #expect(reply.status == .seeOther && reply.headers[.location] == "/console/settings?saved=1", "\(reply.text)")
            let config = try await api.admin(.get, Path.config)
            #expect(test.path.reduce(config.json) { $0?[$1] } == test.expected, "\(config.text)")
            let event = try #require(try await api.auditEvents("kind=CONFIG_CHANGED").first)
            #expect(event["actor"] == "ops@example.com")
            let mask = try #require(ConsoleSettingsGroup.all[test.group]).mask
            #expect(event["detail"] == ["updateMask": .array(mask.map(JSONValue.string))])
            let page = try await api.console(.get, "/console/settings?saved=1", cookie: op.cookie)
            #expect(page.status == .ok && page.text.contains("Saved."))
        }
    }

    @Test("an invalid change shows Firebase's error beside its field and changes nothing", arguments: SettingsCase.all)
    func invalidChange(_ test: SettingsCase) async throws {
        try await withConsoleOperator { api, op in
            let before = try await api.admin(.get, Path.config).json
            var form = test.invalid
            form["csrf"] = op.csrf
            let reply = try await api.console(.post, "/console/settings/\(test.group)", form: form, cookie: op.cookie)
            #expect(reply.status == .badRequest)
            #expect(reply.text.contains(#"aria-describedby="\#(test.field)-error""#), "\(reply.text)")
            #expect(reply.text.contains(#"<p class="error" id="\#(test.field)-error" role="alert">\#(test.message)</p>"#), "\(reply.text)")
            #expect(try await api.admin(.get, Path.config).json == before)
            #expect(try await api.auditEvents("kind=CONFIG_CHANGED").isEmpty)
        }
    }

    @Test("a read-only operator sees the values but no form, and its change is refused", arguments: SettingsCase.all)
    func readOnly(_ test: SettingsCase) async throws {
        try await withConsoleOperator(role: .read) { api, op in
            let before = try await api.admin(.get, Path.config).json
            let page = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(page.status == .ok && !page.text.contains("<form method=\"post\" action=\"/console/settings/"))
            #expect(page.text.contains("localhost") && page.text.contains("300 seconds"))
            var form = test.valid
            form["csrf"] = op.csrf
            let reply = try await api.console(.post, "/console/settings/\(test.group)", form: form, cookie: op.cookie)
            #expect(reply.status == .forbidden)
            #expect(try await api.admin(.get, Path.config).json == before)
        }
    }

    @Test("a change without the CSRF token is refused", arguments: SettingsCase.all)
    func withoutCSRF(_ test: SettingsCase) async throws {
        try await withConsoleOperator { api, op in
            let before = try await api.admin(.get, Path.config).json
            let reply = try await api.console(.post, "/console/settings/\(test.group)", form: test.valid, cookie: op.cookie)
            #expect(reply.status == .forbidden && reply.text.contains("stale"))
            #expect(try await api.admin(.get, Path.config).json == before)
        }
    }

    @Test("the app link forms show the current apps and domains; an Android app and a link domain are removed, the iOS apps cleared")
    func appLinks() async throws {
        try await withConsoleOperator { api, op in
            let form = { (group: String, fields: [String: String]) in
                try await api.console(.post, "/console/settings/\(group)", form: fields.merging(["csrf": op.csrf]) { $1 }, cookie: op.cookie)
            }
            let print = SettingsCase.fingerprint
            _ = try await form("ios-apps", ["teamId": "ABCDE12345", "bundleIds": "com.example.app"])
            _ = try await form("android-apps", ["packageName": "com.example.app", "fingerprints": print])
            _ = try await form("android-apps", ["packageName": "com.example.other", "fingerprints": "\(print), \(print.lowercased())"])
            _ = try await form("link-domains", ["linkDomain": "links.example.com"])
            _ = try await form("link-domains", ["linkDomain": "go.example.com"])
            let page = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(page.text.contains(#"<input id="teamId" name="teamId" value="ABCDE12345""#))
            #expect(page.text.contains("<code>com.example.other</code>") && page.text.contains(#"aria-label="Remove go.example.com""#))
            let aasa = try await api.call(.get, "/.well-known/apple-app-site-association")
            #expect(aasa.text.contains("ABCDE12345.com.example.app"), "\(aasa.text)")
            #expect(try await form("android-apps", ["remove": "com.example.app"]).status == .seeOther)
            #expect(try await form("link-domains", ["remove": "links.example.com"]).status == .seeOther)
            #expect(try await form("ios-apps", ["teamId": "", "bundleIds": ""]).status == .seeOther)
            let flint = try await api.admin(.get, Path.config)["flint"]
            #expect(
                flint?["appLinks"] == [
                    "android": [["packageName": "com.example.other", "sha256CertFingerprints": [.string(print), .string(print.lowercased())]]]
                ])
            #expect(flint?["linkDomains"] == ["go.example.com"])
        }
    }

    @Test("the page shows the current settings in its forms; a domain is removed; clearing app verification takes the server's default")
    func pageAndRemoval() async throws {
        try await withConsoleOperator { api, op in
            let page = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(page.text.contains(#"id="phoneEnabled" name="phoneEnabled" value="true""#))
            #expect(page.text.contains(#"<option value="" selected>Server default"#))
            #expect(page.text.contains(#"<option value="DISABLED" selected>DISABLED</option>"#))
            let added = try await api.console(
                .post, "/console/settings/domains", form: ["csrf": op.csrf, "domain": "app.example.com"], cookie: op.cookie)
            #expect(added.status == .seeOther)
            let removed = try await api.console(
                .post, "/console/settings/domains", form: ["csrf": op.csrf, "remove": "localhost"], cookie: op.cookie)
            #expect(removed.status == .seeOther)
            #expect(try await api.admin(.get, Path.config)["authorizedDomains"] == ["app.example.com"])
            _ = try await api.console(
                .post, "/console/settings/phone", form: ["csrf": op.csrf, "phoneEnabled": "true", "appVerification": "ENFORCE"],
                cookie: op.cookie)
            _ = try await api.console(.post, "/console/settings/phone", form: ["csrf": op.csrf, "phoneEnabled": "true"], cookie: op.cookie)
            #expect(try await api.admin(.get, Path.config)["signIn"]?["phoneNumber"] == ["enabled": true, "testPhoneNumbers": [:]])
        }
    }
}
