import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Phone sign-in with app verification enforced by `flint serve` (dev mode, `appVerification: ENFORCE`).
@Suite("App verification against flint serve")
struct AppVerificationFlowTests {
    static let realNumber = "+14155552671"
    static let otherNumber = "+14155552672"
    static let testNumber = "+16505550101"
    static let apnsToken = Data([0x0A, 0x1B, 0x2C, 0x3D, 0x4E, 0x5F, 0x60, 0x71, 0x82, 0x93, 0xA4, 0xB5, 0xC6, 0xD7, 0xE8, 0xF9])

    /// Signs in with the code the dev outbox holds for `number`.
    func signIn(_ auth: Auth, _ server: FlintProcess, verificationID: String, number: String) async throws -> AuthDataResult {
        let code = try await server.verificationCode(for: number)
        return try await auth.signIn(
            with: PhoneAuthProvider.provider(auth: auth).credential(withVerificationID: verificationID, verificationCode: code))
    }

    @Test("silent push: setAPNSToken, verifyClient, the push through canHandleNotification, SMS, sign-in; the credential is reused")
    func apnsFlow() async throws {
        try await withFlint { server in
            try await server.enforceAppVerification()
            let auth = server.makeVerifyingAuth()
            auth.setAPNSToken(Self.apnsToken, type: .sandbox)
            #expect(auth.apnsToken == Self.apnsToken)
            let device = PushDevice(server: server, auth: auth)
            defer { device.stop() }
            let provider = PhoneAuthProvider.provider(auth: auth)
            let verificationID = try await provider.verifyPhoneNumber(Self.realNumber, uiDelegate: nil)
            let result = try await signIn(auth, server, verificationID: verificationID, number: Self.realNumber)
            #expect(result.user.phoneNumber == Self.realNumber)

            let pushes = try await server.pushes()
            #expect(pushes.count == 1)
            #expect(pushes.first?["appToken"] as? String == "0a1b2c3d4e5f60718293a4b5c6d7e8f9")
            #expect(pushes.first?["environment"] as? String == "sandbox")
            #expect(device.accepted.count == 1)

            // The stored credential serves the next code request (no second verifyClient), and survives sign-out.
            try auth.signOut()
            _ = try await provider.verifyPhoneNumber(Self.otherNumber, uiDelegate: nil)
            #expect(try await server.pushes().count == 1)
            let restored = Auth(app: auth.flintApp, storeDirectory: auth.appVerifier.store.fileURL.deletingLastPathComponent())
            #expect(restored.appVerifier.credential == auth.appVerifier.credential)
            #expect(restored.appVerifier.credential != nil)
        }
    }

    @Test("a used-up receipt (INVALID_APP_CREDENTIAL) is dropped and verifyPhoneNumber gets a new one by push, once")
    func usedUpReceipt() async throws {
        try await withFlint { server in
            try await server.enforceAppVerification()
            let auth = server.makeVerifyingAuth()
            auth.setAPNSToken(Self.apnsToken, type: .prod)
            let device = PushDevice(server: server, auth: auth)
            defer { device.stop() }
            let provider = PhoneAuthProvider.provider(auth: auth)
            for _ in 0..<5 { _ = try await provider.verifyPhoneNumber(Self.realNumber, uiDelegate: nil) }
            let first = try #require(auth.appVerifier.credential)
            #expect(try await server.pushes().count == 1)
            let verificationID = try await provider.verifyPhoneNumber(Self.realNumber, uiDelegate: nil)
            let pushes = try await server.pushes()
            #expect(pushes.count == 2)
            #expect(pushes.last?["environment"] as? String == "production")
            #expect(auth.appVerifier.credential != first)
            _ = try await signIn(auth, server, verificationID: verificationID, number: Self.realNumber)
        }
    }

    @Test("web challenge: the delegate opens the page, the puzzle is solved, the callback reaches canHandle(url), sign-in")
    func webChallengeFlow() async throws {
        try await withFlint { server in
            try await server.enforceAppVerification()
            let auth = server.makeVerifyingAuth()
            auth.languageCode = "fr"
            let browser = BrowserDelegate(auth: auth)
            let provider = PhoneAuthProvider.provider(auth: auth)
            let verificationID = try await provider.verifyPhoneNumber(Self.realNumber, uiDelegate: browser)
            _ = try await signIn(auth, server, verificationID: verificationID, number: Self.realNumber)
            #expect(browser.failures.current.isEmpty)
            #expect(browser.dismissals.current == 1)
            let url = try #require(browser.opened.current.first)
            let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
            #expect(components.scheme == "http" && components.host == "127.0.0.1" && components.port == server.port)
            #expect(components.path == "/__/auth/handler")
            let query = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(query["apiKey"] == "test-key")
            #expect(query["authType"] == "verifyApp")
            #expect(query["ibi"] == "com.example.app")
            #expect(query["appId"] == testGoogleAppID)
            #expect(query["clientId"] == nil)
            #expect(query["hl"] == "fr")
            #expect(query["eventId"]?.count == 10 && query["eventId"]?.allSatisfy { $0.isUppercase } == true)
            // The token was single-use and no credential was stored: the next code needs a new challenge.
            #expect(auth.appVerifier.credential == nil)
            _ = try await provider.verifyPhoneNumber(Self.otherNumber, uiDelegate: browser)
            #expect(browser.opened.current.count == 2)
        }
    }

    @Test("with an APNs token but no push within suggestedTimeout, the web challenge takes over")
    func pushTimeoutFallsBack() async throws {
        try await withFlint { server in
            try await server.enforceAppVerification()
            let auth = server.makeVerifyingAuth()
            auth.setAPNSToken(Self.apnsToken, type: .prod)
            let browser = BrowserDelegate(auth: auth)
            let started = Date()
            let verificationID = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber(Self.realNumber, uiDelegate: browser)
            #expect(Date().timeIntervalSince(started) >= 5)
            #expect(try await server.pushes().count == 1)
            #expect(browser.opened.current.count == 1)
            _ = try await signIn(auth, server, verificationID: verificationID, number: Self.realNumber)
            // The push that came too late still proves the app next time.
            let late = try #require(try await server.pushes().first?["payload"] as? [String: Any])
            var userInfo: [AnyHashable: Any] = [:]
            for (key, value) in late { userInfo[key] = value }
            #expect(auth.canHandleNotification(userInfo))
            #expect(auth.appVerifier.credential != nil)
        }
    }

    @Test("test mode: a fictional number signs in without proof; a real number is refused with missingAppCredential")
    func testMode() async throws {
        try await withFlint { server in
            try await server.enforceAppVerification(testNumbers: [Self.testNumber: "123456"])
            let auth = server.makeAuth()
            #expect(auth.settings?.isAppVerificationDisabledForTesting == true)
            let provider = PhoneAuthProvider.provider(auth: auth)
            let verificationID = try await provider.verifyPhoneNumber(Self.testNumber, uiDelegate: nil)
            _ = try await auth.signIn(with: provider.credential(withVerificationID: verificationID, verificationCode: "123456"))
            do {
                _ = try await provider.verifyPhoneNumber(Self.realNumber, uiDelegate: nil)
                Issue.record("a real number got a code without app verification")
            } catch {
                #expect(authCode(error) == AuthErrorCode.missingAppCredential.rawValue)
                #expect((error as NSError).userInfo[AuthErrors.userInfoNameKey] as? String == "MISSING_APP_CREDENTIAL")
            }
            #expect(try await server.outbox().filter { $0.channel == "sms" }.isEmpty)
        }
    }

    #if !canImport(UIKit)
        @Test("without a push and without a UI delegate no proof is sent: missingAppCredential under ENFORCE, a code under OFF")
        func noDelegate() async throws {
            try await withFlint { server in
                try await server.enforceAppVerification()
                let auth = server.makeVerifyingAuth()
                let provider = PhoneAuthProvider.provider(auth: auth)
                await expectAuthError(.missingAppCredential, "a code was sent without a proof") {
                    try await provider.verifyPhoneNumber(Self.realNumber, uiDelegate: nil)
                }
                try await server.patchConfig(
                    ["signIn": ["phoneNumber": ["appVerification": "OFF"]]], updateMask: "signIn.phoneNumber.appVerification")
                let verificationID = try await provider.verifyPhoneNumber(Self.realNumber, uiDelegate: nil)
                _ = try await signIn(auth, server, verificationID: verificationID, number: Self.realNumber)
            }
        }
    #endif

    @Test("a callback the app hands to canHandle that is not the challenge's is ignored; the right one is taken")
    func wrongCallbackIgnored() async throws {
        try await withFlint { server in
            try await server.enforceAppVerification()
            let auth = server.makeVerifyingAuth()
            let seen = Locked<[Bool]>([])
            let browser = BrowserDelegate(auth: auth) { url in
                let wrong = URL(string: url.absoluteString.replacingOccurrences(of: "eventId%3D", with: "eventId%3DX"))!
                seen.withLock { $0.append(auth.canHandle(wrong)) }
                seen.withLock { $0.append(auth.canHandle(url)) }
                seen.withLock { $0.append(auth.canHandle(url)) }
            }
            _ = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber(Self.realNumber, uiDelegate: browser)
            #expect(seen.current == [false, true, false])
        }
    }
}
