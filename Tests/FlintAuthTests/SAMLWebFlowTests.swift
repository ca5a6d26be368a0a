import FlintAuthTestSupport
import FlintCore
import FlintSAMLTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth
@testable import FlintSAML

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A SAML IdP stand-in on loopback: `/sso` reads the AuthnRequest (HTTP-Redirect) and answers, as JSON, the form of
/// its HTTP-POST binding (`action`, `SAMLResponse`, `RelayState`): a response to that request, for that ACS, signed by
/// the test IdP's key (FlintSAMLTestSupport), for `ada@example.com`.
final class StandInSAMLIdP: Sendable {
    static let spEntityID = "https://flint.test/sp"
    private let server: ScriptedHTTPServer

    init() throws {
        server = try ScriptedHTTPServer { request in
            let query = URLComponents(string: request.target)?.queryItems ?? []
            func item(_ name: String) -> String? { query.first { $0.name == name }?.value }
            guard let encoded = item("SAMLRequest"), let xml = try? TestSigner.inflate(encoded),
                let id = xml.firstMatch(of: #/ ID="([^"]+)"/#)?.output.1,
                let acs = xml.firstMatch(of: #/AssertionConsumerServiceURL="([^"]+)"/#)?.output.1,
                let response = try? StandInSAMLIdP.response(to: String(id), acs: String(acs))
            else { return ScriptedHTTPServer.Reply(status: 400, headers: [:], body: "not an AuthnRequest") }
            let form: JSONValue = [
                "action": .string(String(acs)), "SAMLResponse": .string(response), "RelayState": .string(item("RelayState") ?? ""),
            ]
            return ScriptedHTTPServer.Reply(
                status: 200, headers: ["Content-Type": "application/json"], body: String(decoding: form.serialized(), as: UTF8.self))
        }
    }

    /// `http://127.0.0.1:<port>/sso`.
    var ssoURL: String { "http://127.0.0.1:\(server.port)/sso" }

    func stop() { server.stop() }

    /// The signed response to `requestID`, valid from a minute ago for five minutes, base64.
    private static func response(to requestID: String, acs: String) throws -> String {
        let time = { (offset: Double) in SAMLTime.format(Date().addingTimeInterval(offset)) }
        var template = ResponseTemplate()
        (template.responseInResponseTo, template.confirmationInResponseTo) = (requestID, requestID)
        (template.destination, template.recipient, template.audiences) = (acs, acs, [spEntityID])
        (template.conditionsNotBefore, template.authnInstant) = (time(-60), time(-30))
        (template.confirmationNotOnOrAfter, template.conditionsNotOnOrAfter) = (time(300), time(300))
        template.nameID = "ada@example.com"
        template.attributes = [("email", ["ada@example.com"]), ("displayName", ["Ada"]), ("groups", ["engines", "poets"])]
        return TestSigner.encode(try TestSigner.sign(template.xml(), ids: [template.assertionID], key: TestKey.idp.get()))
    }
}

/// Plays the browser of a SAML sign-in: the handler's redirect to the IdP, the IdP's form posted to the handler, and
/// the handler's redirect to the app's URL scheme handed to `canHandle(_:)`.
final class SAMLBrowser: NSObject, AuthUIDelegate, @unchecked Sendable {
    let auth: Auth
    let failures = Locked<[String]>([])

    nonisolated init(auth: Auth) { self.auth = auth }

    #if os(iOS) || os(tvOS) || os(visionOS)
        func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)?) {}
        func dismiss(animated flag: Bool, completion: (() -> Void)?) {}
    #else
        func presentAppVerification(_ url: URL) {
            let (auth, failures) = (self.auth, self.failures)
            Task {
                do {
                    _ = auth.canHandle(try await Self.signIn(url))
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }

        func dismissAppVerification() {}
    #endif

    /// The handler, the IdP, the POST back: the app-scheme URL the handler answers last.
    static func signIn(_ handler: URL) async throws -> URL {
        let (status, body, location) = try await Browser.request(handler)
        guard status == 303, let location, let idp = URL(string: location) else {
            throw FlintProcessError(message: "handler answered \(status): \(body)")
        }
        let (_, page, _) = try await Browser.request(idp)
        guard let form = (try? JSONValue(parsing: Array(page.utf8)))?.objectValue, let action = form["action"]?.stringValue.flatMap(URL.init(string:))
        else { throw FlintProcessError(message: "the IdP answered \(page)") }
        var post = URLRequest(url: action)
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let fields = ["SAMLResponse", "RelayState"].map { ($0, form[$0]?.stringValue ?? "") }
        post.httpBody = Data(FormEncoding.encode(fields).utf8)
        let (answer, text, back) = try await Browser.request(post)
        guard answer == 303, let back, let callback = URL(string: back) else {
            throw FlintProcessError(message: "the ACS answered \(answer): \(text)")
        }
        return callback
    }
}

@Suite("SAML sign-in with OAuthProvider(providerID: \"saml.…\") against flint serve")
struct SAMLWebFlowTests {
    @Test("getCredentialWith through the IdP, then signIn(with:): a new account with the assertion's attributes in the ID token")
    func signIn() async throws {
        let idp = try StandInSAMLIdP()
        defer { idp.stop() }
        try await withFlint { server in
            try await server.configureWebSignIn(issuer: "https://unused.example")
            let resource: JSONValue = [
                "enabled": true,
                "idpConfig": [
                    "idpEntityId": .string(ResponseTemplate.idpEntityID), "ssoUrl": .string(idp.ssoURL),
                    "idpCertificates": [["x509Certificate": .string(try TestKey.idp.get().certificatePEM)]],
                ],
                "spConfig": [
                    "spEntityId": .string(StandInSAMLIdP.spEntityID), "callbackUri": .string("http://127.0.0.1:\(server.port)/__/auth/handler"),
                ],
            ]
            let (status, data) = try await server.send(
                "POST", "/identitytoolkit.googleapis.com/v2/projects/demo-flint/inboundSamlConfigs?inboundSamlConfigId=saml.corp",
                body: Data(resource.serialized()), headers: ["Authorization": "Bearer owner"])
            #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")
            let auth = server.makeVerifyingAuth()
            let browser = SAMLBrowser(auth: auth)
            let provider = OAuthProvider(providerID: "saml.corp", auth: auth)
            let credential = try await provider.getCredentialWith(browser)
            #expect(browser.failures.current.isEmpty)
            #expect(credential.provider == "saml.corp")
            let result = try await auth.signIn(with: credential)
            #expect(result.additionalUserInfo?.isNewUser == true && result.additionalUserInfo?.providerID == "saml.corp")
            #expect(result.user.email == "ada@example.com" && result.user.providerData.contains { $0.providerID == "saml.corp" })
            let token = try await result.user.getIDTokenResult()
            #expect(token.signInProvider == "saml.corp")
            let attributes = (token.claims["firebase"] as? [String: Any])?["sign_in_attributes"] as? [String: Any]
            #expect(attributes?["displayName"] as? String == "Ada" && attributes?["groups"] as? [String] == ["engines", "poets"], "\(token.claims)")
            // The same credential again: the assertion is spent.
            try auth.signOut()
            await expectAuthError(.invalidCredential, "a spent SAML response signed in again") { try await auth.signIn(with: credential) }
        }
    }
}
