import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

/// canHandleNotification, canHandle(url), the challenge URL and the callback's errors, without a server.
@Suite("App verification, offline")
struct AppVerificationOfflineTests {
    func makeAuth(_ directory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("flint-av-\(UUID().uuidString)")) throws -> Auth {
        let name = "offline-\(UUID().uuidString)"
        FlintApp.configure(name: name, options: FlintOptions(apiKey: "k", projectID: "demo-flint", googleAppID: testGoogleAppID))
        return Auth(app: try #require(FlintApp.app(name: name)), storeDirectory: directory)
    }

    func push(_ auth: Any) -> [AnyHashable: Any] {
        ["aps": ["content-available": 1], "com.google.firebase.auth": auth]
    }

    @Test("a push for a waiting receipt is taken as a dictionary or a JSON string, and stores the credential")
    func pushAccepted() throws {
        let auth = try makeAuth()
        auth.appVerifier.didStartVerification(receipt: "r1")
        auth.appVerifier.didStartVerification(receipt: "r2")
        #expect(auth.canHandleNotification(push(["receipt": "r1", "secret": "s1"])))
        #expect(auth.appVerifier.credential == AppCredential(receipt: "r1", secret: "s1"))
        #expect(auth.canHandleNotification(push(#"{"receipt":"r2","secret":"s2"}"#)))
        #expect(auth.appVerifier.credential == AppCredential(receipt: "r2", secret: "s2"))
        // Each receipt is taken once.
        #expect(!auth.canHandleNotification(push(["receipt": "r1", "secret": "s1"])))
    }

    @Test(
        "anything else is not ours",
        arguments: [
            #"{"aps":{"content-available":1}}"#,
            #"{"com.google.firebase.auth":{"receipt":"unknown","secret":"s"}}"#,
            #"{"com.google.firebase.auth":{"receipt":"r1"}}"#,
            #"{"com.google.firebase.auth":{"secret":"s"}}"#,
            #"{"com.google.firebase.auth":{"receipt":"r1","secret":""}}"#,
            #"{"com.google.firebase.auth":{"receipt":1,"secret":"s"}}"#,
            #"{"com.google.firebase.auth":"not json"}"#,
            #"{"com.google.firebase.auth":"[\"r1\",\"s\"]"}"#,
            #"{"com.google.firebase.auth":42}"#,
            #"{"com.google.firebase.auth":{"warning":"This fake notification should be forwarded to Firebase Auth."}}"#,
            #"{"com.google.firebase.auths":{"receipt":"r1","secret":"s"}}"#,
        ])
    func pushRefused(_ json: String) throws {
        let auth = try makeAuth()
        auth.appVerifier.didStartVerification(receipt: "r1")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        var userInfo: [AnyHashable: Any] = [:]
        for (key, value) in object { userInfo[key] = value }
        #expect(!auth.canHandleNotification(userInfo))
        #expect(auth.appVerifier.credential == nil)
    }

    @Test("the forwarding probe: its warning is taken only while it runs; the answer is kept")
    func probe() async throws {
        let forwarding = try makeAuth()
        let forwarded = await forwarding.appVerifier.checkNotificationForwarding {
            _ = forwarding.canHandleNotification(AppVerifier.probeNotification())
        }
        #expect(forwarded)
        #expect(!forwarding.canHandleNotification(AppVerifier.probeNotification()))
        #expect(await forwarding.appVerifier.checkNotificationForwarding {})

        let silent = try makeAuth()
        let started = Date()
        #expect(!(await silent.appVerifier.checkNotificationForwarding {}))
        #expect(Date().timeIntervalSince(started) >= 1)
        #expect(!(await silent.appVerifier.checkNotificationForwarding { _ = silent.canHandleNotification(AppVerifier.probeNotification()) }))
    }

    @Test("the credential and pending receipts persist beside the user store (0600), at most 32 pending, not cleared by signOut")
    func persistence() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flint-av-\(UUID().uuidString)")
        let auth = try makeAuth(directory)
        for i in 0..<40 { auth.appVerifier.didStartVerification(receipt: "r\(i)") }
        #expect(auth.canHandleNotification(push(["receipt": "r39", "secret": "s"])))
        try auth.signOut()
        let again = Auth(app: auth.flintApp, storeDirectory: directory)
        #expect(again.appVerifier.credential == AppCredential(receipt: "r39", secret: "s"))
        #expect(again.appVerifier.state.current.stored.pendingReceipts == (8..<39).map { "r\($0)" })
        #expect(!again.canHandleNotification(push(["receipt": "r7", "secret": "s"])))
        let attributes = try FileManager.default.attributesOfItem(atPath: auth.appVerifier.store.fileURL.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(auth.appVerifier.store.fileURL.deletingLastPathComponent() == (auth.store as? UserStore)?.fileURL.deletingLastPathComponent())
    }

    @Test("a secret that arrives while verifyPhoneNumber waits ends the wait; none ends it at the timeout")
    func waiting() async throws {
        let auth = try makeAuth()
        auth.appVerifier.didStartVerification(receipt: "r1")
        async let secret = auth.appVerifier.waitForSecret(receipt: "r1", timeout: 10)
        // The wait is a task of this process: yield to it until it has registered (no clock involved).
        while auth.appVerifier.state.current.secretWaiters["r1"] == nil { await Task.yield() }
        #expect(auth.canHandleNotification(push(["receipt": "r1", "secret": "s1"])))
        #expect(await secret == "s1")
        auth.appVerifier.didStartVerification(receipt: "r2")
        #expect(await auth.appVerifier.waitForSecret(receipt: "r2", timeout: 0.2) == nil)
    }

    static let callback =
        "\(testCallbackScheme)://firebaseauth/link?deep_link_id="
        + "https://flint.example/__/auth/callback?authType=verifyApp&recaptchaToken=T0K&eventId=ABCDEFGHIJ"
        .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!

    @Test(
        "the callback matcher wants the scheme, firebaseauth/link, authType=verifyApp and the challenge's eventId",
        arguments: [
            (callback, true),
            (callback.replacingOccurrences(of: testCallbackScheme, with: "APP-1-123456789-IOS-ABC123"), true),
            (callback.replacingOccurrences(of: testCallbackScheme, with: "app-9-9-ios-9"), false),
            (callback.replacingOccurrences(of: "firebaseauth/link", with: "firebaseauth/links"), false),
            (callback.replacingOccurrences(of: "://firebaseauth", with: "://example"), false),
            (callback.replacingOccurrences(of: "ABCDEFGHIJ", with: "ABCDEFGHIK"), false),
            (callback.replacingOccurrences(of: "verifyApp", with: "signInViaRedirect"), false),
            (callback.replacingOccurrences(of: "deep_link_id", with: "link"), false),
            (callback + "#fragment", true),
            ("\(testCallbackScheme)://firebaseauth/link", false),
            ("https://flint.example/__/auth/callback?authType=verifyApp&eventId=ABCDEFGHIJ", false),
        ])
    func matcher(_ text: String, _ expected: Bool) throws {
        let url = try #require(URL(string: text))
        #expect(AppVerifier.isExpectedCallbackURL(url, scheme: testCallbackScheme, eventID: "ABCDEFGHIJ") == expected)
    }

    @Test("canHandle(url) is true only while a challenge waits, and resumes it with the token")
    func canHandleWhileWaiting() async throws {
        let auth = try makeAuth()
        let url = try #require(URL(string: Self.callback))
        #expect(!auth.canHandle(url))
        let presented = Locked(false)
        let callback = try await auth.appVerifier.awaitCallback(eventID: "ABCDEFGHIJ", scheme: testCallbackScheme) { _ in
            presented.withLock { $0 = true }
            _ = auth.canHandle(url)
        }
        #expect(presented.current)
        #expect(try AppVerifier.callbackResult(callback).get() == "T0K")
        #expect(!auth.canHandle(url))
    }

    @Test("a newer challenge or the user closing it ends the wait with webContextCancelled")
    func cancelled() async throws {
        let auth = try makeAuth()
        do {
            _ = try await auth.appVerifier.awaitCallback(eventID: "ABCDEFGHIJ", scheme: testCallbackScheme) { id in
                auth.appVerifier.cancelPresentation(id: id)
            }
            Issue.record("the wait did not end")
        } catch {
            #expect(authCode(error) == AuthErrorCode.webContextCancelled.rawValue)
        }
        let presented = EventLog<UUID>()
        let first = Task {
            try await auth.appVerifier.awaitCallback(eventID: "AAAAAAAAAA", scheme: testCallbackScheme) { presented.record($0) }
        }
        _ = await presented.wait(for: 1)  // the first page is registered and shown
        let second = Task { try await auth.appVerifier.awaitCallback(eventID: "BBBBBBBBBB", scheme: testCallbackScheme) { _ in } }
        await #expect(throws: (any Error).self) { try await first.value }
        second.cancel()
        await #expect(throws: (any Error).self) { try await second.value }
    }

    @Test(
        "the callback's firebaseError maps to FirebaseAuth's codes",
        arguments: [
            (#"{"code":"auth/invalid-oauth-client-id","message":"m"}"#, AuthErrorCode.invalidClientID),
            (#"{"code":"auth/network-request-failed","message":"m"}"#, .webNetworkRequestFailed),
            (#"{"code":"auth/internal-error","message":"m"}"#, .webInternalError),
            (#"{"code":"auth/captcha-check-failed","message":"m"}"#, .webSignInUserInteractionFailure),
            (#"{"message":"no code"}"#, .appVerificationUserInteractionFailure),
            ("not json", .appVerificationUserInteractionFailure),
            ("", .appVerificationUserInteractionFailure),
        ])
    func firebaseError(_ json: String, _ code: AuthErrorCode) throws {
        let inner =
            "https://flint.example/__/auth/callback?authType=verifyApp&eventId=ABCDEFGHIJ"
            + (json.isEmpty ? "" : "&firebaseError=" + json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        let url = try #require(
            URL(
                string: "\(testCallbackScheme)://firebaseauth/link?deep_link_id=" + inner.addingPercentEncoding(
                    withAllowedCharacters: .alphanumerics)!))
        guard case .failure(let error) = AppVerifier.callbackResult(url) else {
            Issue.record("no error")
            return
        }
        #expect(error.code == code.rawValue)
        if code == .webSignInUserInteractionFailure { #expect(error.localizedDescription == "[auth/captcha-check-failed] - m") }
    }

    @Test("the challenge URL and callback scheme follow the client ID, else the Google app ID")
    func challengeURL() throws {
        let byAppID = try AppVerifier.callbackClient(options: FlintOptions(apiKey: "k", projectID: "p", googleAppID: testGoogleAppID))
        #expect(byAppID.scheme == testCallbackScheme)
        #expect(byAppID.item == URLQueryItem(name: "appId", value: testGoogleAppID))
        let byClient = try AppVerifier.callbackClient(
            options: FlintOptions(apiKey: "k", projectID: "p", clientID: "123-abc.apps.googleusercontent.com", googleAppID: testGoogleAppID))
        #expect(byClient.scheme == "com.googleusercontent.apps.123-abc")
        #expect(byClient.item == URLQueryItem(name: "clientId", value: "123-abc.apps.googleusercontent.com"))
        #expect(throws: (any Error).self) { try AppVerifier.callbackClient(options: FlintOptions(apiKey: "k", projectID: "p")) }

        let url = try #require(
            AppVerifier.challengeURL(
                root: "https://auth.example.com/", apiKey: "k", bundleID: "com.example.app", eventID: "ABCDEFGHIJ", client: byAppID.item,
                language: "tr"))
        #expect(
            url.absoluteString
                == "https://auth.example.com/__/auth/handler?apiKey=k&authType=verifyApp&ibi=com.example.app&v=FlintAuth/1.0&eventId=ABCDEFGHIJ&appId=1:123456789:ios:abc123&hl=tr"
        )
        let event = AppVerifier.newEventID()
        #expect(event.count == 10 && event.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) })
    }

    @Test("AuthAPNSTokenType has FirebaseAuth's raw values, and unknown resolves to prod without a provisioning profile")
    func tokenType() {
        #expect(AuthAPNSTokenType.unknown.rawValue == 0)
        #expect(AuthAPNSTokenType.sandbox.rawValue == 1)
        #expect(AuthAPNSTokenType.prod.rawValue == 2)
        #expect(AuthAPNSTokenType.unknown.resolved == .prod)
        #expect(AuthAPNSTokenType.sandbox.resolved == .sandbox)
    }
}
