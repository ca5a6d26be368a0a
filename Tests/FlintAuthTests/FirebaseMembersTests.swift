import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

/// FirebaseAuth members apps call beside the sign-ins: the state notification, `initializeRecaptchaConfig`, and
/// `TOTPSecret.openInOTPApp` on Linux.
@Suite("FirebaseAuth's notification, reCAPTCHA initialization and OTP app")
struct FirebaseMembersTests {
    @Test("AuthStateDidChange is posted with the Auth as its object after a sign-in and after a sign-out")
    func stateNotification() async throws {
        #expect(Notification.Name.AuthStateDidChange == Auth.authStateDidChangeNotification)
        #expect(Auth.authStateDidChangeNotification.rawValue == "FIRAuthStateDidChangeNotification")
        let server = try ScriptedHTTPServer(script: [
            .status(200, #"{"idToken":"anon.id.token","refreshToken":"refresh-anon","expiresIn":"3600","localId":"uid-anon"}"#),
            ProviderCredentialTests.lookup(uid: "uid-anon"),
        ])
        defer { server.stop() }
        let auth = try OAuthOfflineTests.auth(port: server.port)
        let seen = EventLog<String?>()
        let observer = NotificationCenter.default.addObserver(forName: .AuthStateDidChange, object: nil, queue: nil) { note in
            // Other tests' instances post too; only this one's count.
            guard let sender = note.object as? Auth, sender === auth else { return }
            seen.record(sender.currentUser?.uid)
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        try await auth.signInAnonymously()
        #expect(await seen.wait(for: 1) == ["uid-anon"])
        try auth.signOut()
        #expect(await seen.wait(for: 2) == ["uid-anon", nil])
    }

    @Test("initializeRecaptchaConfig asks recaptchaConfig as FirebaseAuth does and succeeds only while reCAPTCHA is off")
    func initializeRecaptchaConfig() async throws {
        let off =
            #"{"recaptchaEnforcementState":[{"provider":"EMAIL_PASSWORD_PROVIDER","enforcementState":"OFF"},{"provider":"PHONE_PROVIDER","enforcementState":"OFF"}]}"#
        let server = try ScriptedHTTPServer(script: [
            .status(200, off), .status(200, off),
            .status(
                200,
                #"{"recaptchaKey":"projects/p/keys/site-key","recaptchaEnforcementState":[{"provider":"PHONE_PROVIDER","enforcementState":"AUDIT"}]}"#
            ),
            .status(
                200, #"{"recaptchaKey":"site-key","recaptchaEnforcementState":[{"provider":"EMAIL_PASSWORD_PROVIDER","enforcementState":"ENFORCE"}]}"#
            ),
            .status(400, #"{"error":{"code":400,"message":"INVALID_TENANT_ID","errors":[]}}"#),
        ])
        defer { server.stop() }
        let auth = try OAuthOfflineTests.auth(port: server.port)
        try await auth.initializeRecaptchaConfig()
        #expect(
            server.requestLines.first
                == "GET /identitytoolkit.googleapis.com/v2/recaptchaConfig?key=k&clientType=CLIENT_TYPE_IOS&version=RECAPTCHA_ENTERPRISE HTTP/1.1")
        #expect(server.requestBodies.first == "")

        auth.tenantID = "tenant-1"
        let error: (any Error)? = await withCheckedContinuation { continuation in
            auth.initializeRecaptchaConfig { continuation.resume(returning: $0) }
        }
        #expect(error == nil)
        #expect(
            server.requestLines[1].contains("/v2/recaptchaConfig?key=k&clientType=CLIENT_TYPE_IOS&version=RECAPTCHA_ENTERPRISE&tenantId=tenant-1 "))

        await expectAuthError(.recaptchaSDKNotLinked, "initialized reCAPTCHA without its SDK") { try await auth.initializeRecaptchaConfig() }
        await expectAuthError(.recaptchaNotEnabled, "accepted a malformed site key") { try await auth.initializeRecaptchaConfig() }
        await expectAuthError(.internalError, "ignored the server's refusal") { try await auth.initializeRecaptchaConfig() }
    }

    #if os(Linux)
        @Test("on Linux openInOTPApp hands the URL to the first xdg-open on the PATH; without one nothing runs")
        func openInOTPApp() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flint-otp-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let opened = directory.appendingPathComponent("opened")
            let script = directory.appendingPathComponent("xdg-open")
            try "#!/bin/sh\nprintf '%s' \"$1\" > '\(opened.path)'\n".write(to: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
            let url = "otpauth://totp/Flint:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Flint&algorithm=SHA1&digits=6"

            #expect(await TOTPSecret.open(url, searchPath: "/nonexistent-flint:\(directory.path)"))
            #expect(try String(contentsOf: opened, encoding: .utf8) == url)
            #expect(await TOTPSecret.open(url, searchPath: "/nonexistent-flint") == false)
            #expect(await TOTPSecret.open("not a url", searchPath: directory.path) == false)
        }
    #endif
}
