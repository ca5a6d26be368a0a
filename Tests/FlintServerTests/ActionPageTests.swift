import FlintCore
import FlintServer
import FlintServerTestSupport
import Foundation
import HTTPTypes
import Testing

@Suite("Action page and app links")
struct ActionPageTests {
    /// The path and query of a link, as the router test client takes it.
    static func local(_ link: String) -> String {
        guard let range = link.range(of: "/__/auth/action") else { return link }
        return String(link[range.lowerBound...])
    }

    @Test("opening a sign-in link never uses the code: the page continues to the app with the link's parameters")
    func signInPage() async throws {
        try await withFlint { api in
            _ = try await api.sendSignInLink("scan@example.com")
            let (code, link) = try await api.oobCode(for: "scan@example.com")
            for _ in 0..<3 {
                let page = try await api.call(.get, Self.local(link))
                #expect(page.status == .ok)
                #expect(page.headers[.contentType] == "text/html; charset=utf-8")
                #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
                #expect(page.headers[.cacheControl] == "no-store")
                #expect(page.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
                #expect(page.text.contains("https://localhost/finish?apiKey=test&amp;oobCode=\(code)&amp;mode=signIn"))
            }
            #expect(try await api.oobCodes().count == 1)
            #expect(try await api.post(Path.emailLinkSignIn, ["email": "scan@example.com", "oobCode": code]).status == .ok)
            let used = try await api.call(.get, Self.local(link))
            #expect(used.status == .badRequest)
        }
    }

    @Test("email verification: GET asks, POST confirms once")
    func verifyEmailPage() async throws {
        try await withFlint { api in
            let user = try await api.signUp("page@example.com", "password1")
            _ = try await api.post(Path.sendOob, ["requestType": "VERIFY_EMAIL", "idToken": user.idToken])
            let (code, link) = try await api.oobCode(for: "page@example.com")
            let page = try await api.call(.get, Self.local(link))
            #expect(page.status == .ok)
            #expect(page.text.contains("<form"))
            #expect(page.text.contains(code))
            #expect(page.text.contains("page@example.com"))
            #expect(try await api.oobCodes().count == 1)

            let form = "mode=verifyEmail&oobCode=\(code)&apiKey=test&lang=en"
            let done = try await api.call(.post, Path.action, body: form, contentType: "application/x-www-form-urlencoded")
            #expect(done.status == .ok, "\(done.text)")
            let account = try #require(try await api.lookup(user.idToken)["users"]?.arrayValue?.first)
            #expect(account["emailVerified"] == .bool(true))
            let again = try await api.call(.post, Path.action, body: form, contentType: "application/x-www-form-urlencoded")
            #expect(again.status == .badRequest)
        }
    }

    @Test("password reset page: a weak password shows the form again; a good one is set")
    func resetPage() async throws {
        try await withFlint { api in
            _ = try await api.signUp("forgot@example.com", "old-password")
            _ = try await api.post(Path.sendOob, ["requestType": "PASSWORD_RESET", "email": "forgot@example.com"])
            let (code, link) = try await api.oobCode(for: "forgot@example.com")
            let page = try await api.call(.get, Self.local(link))
            #expect(page.text.contains("newPassword"))
            let weak = try await api.call(
                .post, Path.action, body: "mode=resetPassword&oobCode=\(code)&newPassword=abc", contentType: "application/x-www-form-urlencoded")
            #expect(weak.status == .badRequest)
            #expect(weak.text.contains("newPassword"))
            let good = try await api.call(
                .post, Path.action, body: "mode=resetPassword&oobCode=\(code)&newPassword=brand+new+pass",
                contentType: "application/x-www-form-urlencoded")
            #expect(good.status == .ok, "\(good.text)")
            #expect(try await api.signInWithPassword("forgot@example.com", "brand new pass").status == .ok)
        }
    }

    @Test("unknown codes and modes get an error page")
    func badLinks() async throws {
        try await withFlint { api in
            let unknown = try await api.call(.get, "\(Path.action)?mode=signIn&oobCode=unknown")
            let badMode = try await api.call(.get, "\(Path.action)?mode=explode&oobCode=x")
            let bare = try await api.call(.get, Path.action)
            #expect(unknown.status == .badRequest)
            #expect(badMode.status == .badRequest)
            #expect(bare.status == .badRequest)
            #expect(unknown.text.contains("<html"))
        }
    }

    @Test("apple-app-site-association (Universal Links and passkeys' webcredentials) and assetlinks.json list the configured apps")
    func appLinks() async throws {
        try await withFlint { api in
            let empty = try await api.call(.get, "/.well-known/apple-app-site-association")
            #expect(empty.status == .ok)
            #expect(empty["applinks"]?["details"] == .array([]))
            #expect(empty["webcredentials"]?["apps"] == .array([]))
            let config = #"""
                {"flint":{"appLinks":{"apple":{"teamId":"ABCDE12345","bundleIds":["com.example.app"]},
                "android":[{"packageName":"com.example.app","sha256CertFingerprints":["\#(Array(repeating: "AB", count: 32).joined(separator: ":"))"]}]}}}
                """#
            try await api.patchConfig(config, mask: "flint.appLinks")
            let aasa = try await api.call(.get, "/.well-known/apple-app-site-association")
            #expect(aasa.headers[.contentType] == "application/json")
            let detail = try #require(aasa["applinks"]?["details"]?.arrayValue?.first)
            #expect(detail["appIDs"] == .array(["ABCDE12345.com.example.app"]))
            #expect(detail["components"]?.arrayValue?.first?["/"]?.stringValue == "/__/auth/action*")
            // The same apps may use the domain's passkeys.
            #expect(aasa["webcredentials"]?["apps"] == .array(["ABCDE12345.com.example.app"]))
            let android = try await api.call(.get, "/.well-known/assetlinks.json")
            let statement = try #require(android.json.arrayValue?.first)
            #expect(statement["target"]?["package_name"]?.stringValue == "com.example.app")
            #expect(statement["relation"] == .array(["delegate_permission/common.handle_all_urls"]))

            let bad = try await api.admin(
                .patch, Path.config + "?updateMask=flint.appLinks", body: #"{"flint":{"appLinks":{"apple":{"teamId":"x"}}}}"#)
            #expect(bad.errorCode == "INVALID_CONFIG")
        }
    }
}
