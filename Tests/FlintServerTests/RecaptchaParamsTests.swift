import FlintCore
import FlintServerTestSupport
import Foundation
import Hummingbird
import Testing

@testable import FlintServer

/// The Web SDK's `RecaptchaVerifier` asks for a site key before every phone sign-in.
@Suite("App verification: recaptchaParams")
struct RecaptchaParamsTests {
    static let paths = ["\(Path.v1)/recaptchaParams", "\(Path.v3)/getRecaptchaParam"]

    @Test("recaptchaParams (v1 and v3) answers a non-empty site key and stoken", arguments: paths)
    func answersParams(_ path: String) async throws {
        try await withFlint { api in
            let reply = try await api.call(.get, API.keyed(path))
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.string("kind") == "identitytoolkit#GetRecaptchaParamResponse")
            #expect(reply.string("recaptchaSiteKey")?.isEmpty == false)
            #expect(reply.string("recaptchaStoken")?.isEmpty == false)
        }
    }

    @Test("recaptchaParams without an API key is refused like every client call", arguments: paths)
    func requiresKey(_ path: String) async throws {
        try await withFlint { api in
            let reply = try await api.call(.get, path)
            #expect(reply.status == .forbidden)
            #expect(reply.errorMessage == AuthError.missingAPIKey.message)
        }
    }

    @Test("against a dev server a web app finishes a phone sign-in with whatever token its verifier made")
    func devServerAcceptsAnyToken() async throws {
        try await withFlint { api in
            let params = try await api.call(.get, API.keyed("\(Path.v1)/recaptchaParams"))
            #expect(params.status == .ok)
            let sent = try await api.send(alice, ["recaptchaToken": "token-from-a-widget-with-\(params.string("recaptchaSiteKey") ?? "")"])
            #expect(sent.status == .ok, "\(sent.text)")
            let sessionInfo = try #require(sent.string("sessionInfo"))
            let signedIn = try await api.verify(sessionInfo, code: try await api.pendingCode(for: alice))
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("idToken") != nil)
        }
    }

    @Test("where app verification is enforced, a token that is not from Flint's challenge is refused")
    func enforcedRefusesForeignTokens() async throws {
        try await withFlint { api in
            try await api.setAppVerification("ENFORCE")
            let sent = try await api.send(alice, ["recaptchaToken": "token-from-a-widget-with-the-placeholder-key"])
            #expect(sent.status == .badRequest)
            #expect(sent.errorCode == "CAPTCHA_CHECK_FAILED", "\(sent.text)")
        }
    }
}
