import FlintAuthTestSupport
import Foundation
import Testing

@testable import FlintAuth

@Suite("Without a server")
struct OfflineTests {
    @Test(
        "isSignIn reads the link's query decoded once",
        arguments: [
            ("https://x.example/__/auth/action?mode=signIn&oobCode=abc&apiKey=k", true),
            ("https://x.example/__/auth/action?mode=resetPassword&oobCode=abc", false),
            ("https://x.example/__/auth/action?mode=signIn", false),
            // Wrapped links: the inner query is read after one decode, so its first item is swallowed by `link=`.
            ("https://app.example/?link=https%3A%2F%2Fx.example%2F__%2Fauth%2Faction%3FapiKey%3Dk%26mode%3DsignIn%26oobCode%3Dabc", true),
            ("https://app.example/?link=https%3A%2F%2Fx.example%2F__%2Fauth%2Faction%3Fmode%3DsignIn%26oobCode%3Dabc", false),
            ("not a link", false),
        ])
    func isSignIn(link: String, expected: Bool) throws {
        FlintApp.configure(name: "offline", options: FlintOptions(apiKey: "k", projectID: "demo-flint"))
        let auth = Auth.auth(app: try #require(FlintApp.app(name: "offline")))
        #expect(auth.isSignIn(withEmailLink: link) == expected)
    }

    @Test(
        "server messages map to FirebaseAuth's codes, split at the first colon",
        arguments: [
            ("INVALID_LOGIN_CREDENTIALS", 17004), ("EMAIL_EXISTS", 17007), ("INVALID_EMAIL", 17008), ("INVALID_PASSWORD", 17009),
            ("TOO_MANY_ATTEMPTS_TRY_LATER : Try again later.", 17010), ("EMAIL_NOT_FOUND", 17011), ("USER_DISABLED", 17005),
            ("OPERATION_NOT_ALLOWED", 17006), ("INVALID_OOB_CODE", 17030), ("EXPIRED_OOB_CODE", 17029), ("TOKEN_EXPIRED", 17021),
            ("INVALID_ID_TOKEN", 17017), ("WEAK_PASSWORD : Password should be at least 6 characters", 17026),
            ("MISSING_PASSWORD", 17999), ("INVALID_CODE", 17044), ("INVALID_SESSION_INFO", 17046), ("SESSION_EXPIRED", 17051),
            ("INVALID_PHONE_NUMBER : TOO_SHORT", 17042), ("MISSING_PHONE_NUMBER", 17041), ("PHONE_NUMBER_EXISTS", 17025),
            ("MISSING_CODE", 17043), ("MISSING_SESSION_INFO", 17045),
        ])
    func errorMapping(message: String, code: Int) throws {
        let body = try JSONSerialization.data(withJSONObject: ["error": ["code": 400, "message": message]])
        let error = Backend.serverError(data: body)
        #expect(error.domain == "FIRAuthErrorDomain")
        #expect(error.code == code)
        #expect(!error.localizedDescription.isEmpty)
    }

    @Test("an error without the server's detail reads as a sentence meant for a person, for every code")
    func messagesForPeople() {
        for code in AuthErrorCode.allCases {
            let message = code.error().localizedDescription
            #expect(message.count > 15, "\(code)")
            #expect(message.hasSuffix(".") && !message.contains("ERROR_"), "\(code): \(message)")
        }
        #expect(Set(AuthErrorCode.allCases.map(\.defaultMessage)).count == AuthErrorCode.allCases.count)
    }

    @Test("WEAK_PASSWORD's detail is the failure reason; other details are the description")
    func errorDetails() throws {
        let weak = Backend.serverError(
            data: try JSONSerialization.data(withJSONObject: ["error": ["message": "WEAK_PASSWORD : Password should be at least 6 characters"]]))
        #expect(weak.userInfo[NSLocalizedFailureReasonErrorKey] as? String == "Password should be at least 6 characters")
        let limited = Backend.serverError(
            data: try JSONSerialization.data(withJSONObject: ["error": ["message": "TOO_MANY_ATTEMPTS_TRY_LATER : Try again in 5 minutes."]]))
        #expect(limited.localizedDescription == "Try again in 5 minutes.")
        #expect(limited.userInfo[AuthErrors.userInfoNameKey] as? String == "ERROR_TOO_MANY_REQUESTS")
        #expect(AuthErrorCode.invalidAPIKey.errorName == "ERROR_INVALID_API_KEY")
        #expect(AuthErrorCode.missingIosBundleID.errorName == "ERROR_MISSING_IOS_BUNDLE_ID")
        #expect(AuthErrorCode.tenantIDMismatch.errorName == "ERROR_TENANT_ID_MISMATCH")
    }

    @Test("an unreachable server is networkError (17020)")
    func networkError() async throws {
        FlintApp.configure(name: "unreachable", options: FlintOptions(apiKey: "k", projectID: "demo-flint"))
        let auth = Auth(
            app: try #require(FlintApp.app(name: "unreachable")),
            storeDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("flint-auth-\(UUID().uuidString)"))
        auth.useEmulator(withHost: "127.0.0.1", port: 1)
        await expectAuthError(.networkError, "signed in without a server") { try await auth.signIn(withEmail: "a@example.com", password: "secret") }
    }

    @Test("requests address the emulator, a self-hosted root, or Google's hosts")
    func urls() throws {
        let hosted = Backend(options: FlintOptions(apiKey: "k", projectID: "p", baseURL: URL(string: "https://auth.example.com/")))
        #expect(
            hosted.url(host: "identitytoolkit.googleapis.com", path: "/v1/accounts:signUp")?.absoluteString
                == "https://auth.example.com/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k")
        let google = Backend(options: FlintOptions(apiKey: "k", projectID: "p"))
        #expect(
            google.url(host: "securetoken.googleapis.com", path: "/v1/token")?.absoluteString
                == "https://securetoken.googleapis.com/v1/token?key=k")
        FlintApp.configure(name: "emulated", options: FlintOptions(apiKey: "k", projectID: "p"))
        let auth = Auth.auth(app: try #require(FlintApp.app(name: "emulated")))
        #expect(auth.settings?.isAppVerificationDisabledForTesting == false)
        auth.useEmulator(withHost: "::1", port: 9099)
        #expect(auth.settings?.isAppVerificationDisabledForTesting == true)
        #expect(auth.settings?.appVerificationDisabledForTesting == true)
        #expect(
            auth.backend.url(host: "securetoken.googleapis.com", path: "/v1/token")?.absoluteString
                == "http://[::1]:9099/securetoken.googleapis.com/v1/token?key=k")
    }
}

@Suite("Retries")
struct RetryTests {
    /// An `Auth` addressed to `server`.
    static func auth(for server: ScriptedHTTPServer) throws -> Auth {
        let name = "retry-\(UUID().uuidString.prefix(8))"
        FlintApp.configure(name: name, options: FlintOptions(apiKey: "k", projectID: "demo-flint"))
        let auth = Auth(
            app: try #require(FlintApp.app(name: name)),
            storeDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("flint-auth-\(UUID().uuidString)"))
        auth.useEmulator(withHost: "127.0.0.1", port: server.port)
        return auth
    }

    @Test("a read (createAuthUri) is sent once more after a 503 or a dropped connection, and succeeds")
    func idempotentRetried() async throws {
        let server = try ScriptedHTTPServer(script: [
            .status(503, "{}"), .status(200, #"{"signinMethods":["emailLink"]}"#),
            .drop, .status(200, #"{"signinMethods":["password"]}"#),
        ])
        defer { server.stop() }
        let auth = try Self.auth(for: server)
        #expect(try await auth.fetchSignInMethods(forEmail: "a@example.com") == ["emailLink"])
        #expect(try await auth.fetchSignInMethods(forEmail: "a@example.com") == ["password"])
        #expect(server.requestLines.count == 4)
    }

    @Test("requests carry FirebaseAuth's identifying headers: bundle ID, Google app ID, locale, client version")
    func identifyingHeaders() async throws {
        let server = try ScriptedHTTPServer(script: [.status(200, #"{"signinMethods":[]}"#)])
        defer { server.stop() }
        let name = "headers-\(UUID().uuidString.prefix(8))"
        FlintApp.configure(
            name: name, options: FlintOptions(apiKey: "k", projectID: "demo-flint", googleAppID: "1:2:ios:3", bundleID: "com.example.app"))
        let auth = Auth(
            app: try #require(FlintApp.app(name: name)),
            storeDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("flint-auth-\(UUID().uuidString)"))
        auth.useEmulator(withHost: "127.0.0.1", port: server.port)
        auth.languageCode = "tr"
        _ = try await auth.fetchSignInMethods(forEmail: "a@example.com")
        let headers = try #require(server.requestHeaders.first)
        #expect(headers["x-ios-bundle-identifier"] == "com.example.app")
        #expect(headers["x-firebase-gmpid"] == "1:2:ios:3")
        #expect(headers["x-firebase-locale"] == "tr")
        #expect(headers["x-client-version"] == "Swift/FlintAuth/1.0")
        #expect(headers["content-type"] == "application/json")
    }

    @Test("a read fails after its one retry; a sign-in is never sent twice")
    func retryLimits() async throws {
        let server = try ScriptedHTTPServer(script: [.status(503, "{}"), .status(503, "{}"), .drop, .status(200, "{}")])
        defer { server.stop() }
        let auth = try Self.auth(for: server)
        await #expect(throws: (any Error).self) { try await auth.fetchSignInMethods(forEmail: "a@example.com") }
        #expect(server.requestLines.count == 2)
        await expectAuthError(.networkError, "signed in through a dropped connection") {
            try await auth.signIn(withEmail: "a@example.com", password: "secret")
        }
        #expect(server.requestLines.count == 3)
        #expect(server.requestLines.last?.hasPrefix("POST /identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k") == true)
    }
}
