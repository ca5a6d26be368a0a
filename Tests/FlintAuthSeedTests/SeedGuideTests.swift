import FlintAuth
import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

/// Runs the guides' snippets against a fresh `flint serve` each: the default app (`Auth.auth()`, as the snippets use
/// it) is configured for that server, the person's part (typing codes, opening the emailed link) is played by the
/// test from Flint's dev APIs.
@Suite("The seeds' Swift, run against flint serve", .serialized)
struct SeedGuideTests {
    /// Configures the default app for `server` with an API key of its own (so no earlier run's user is restored).
    @MainActor func configureDefaultApp(for server: FlintProcess) {
        FlintApp.configure(options: FlintOptions(apiKey: "seed-\(UUID().uuidString.prefix(8))", projectID: "demo-flint"))
        Auth.auth().useEmulator(withHost: "127.0.0.1", port: server.port)
    }

    @MainActor @Test("phone guide (seeds 000, 001, 003): French SMS, saved verification ID, sign-in, sign-out")
    func phoneGuide() async throws {
        try await withFlint { server in
            try await server.enablePhone()
            configureDefaultApp(for: server)
            let app = AppStandIn()
            let guide = PhoneSignInGuide(app: app, phoneNumber: "+14155552671")
            guide.changeLanguage()
            guide.sendCode()
            _ = try await app.waitFor("code sent")
            #expect(try await server.outbox().last?.locale == "fr")
            guide.verificationCode = try await server.verificationCode(for: "+14155552671")
            guide.signIn()
            let signedIn = try await app.waitFor("signed in ")
            let user = try #require(Auth.auth().currentUser)
            #expect(signedIn == "signed in \(user.uid)")
            #expect(user.phoneNumber == "+14155552671")

            guide.signOut()
            #expect(Auth.auth().currentUser == nil)

            // A wrong code reaches the guide's alert.
            guide.sendCode()
            _ = try await app.waitFor("code sent", count: 2)
            guide.verificationCode = "000000" == (try await server.verificationCode(for: "+14155552671")) ? "111111" : "000000"
            guide.signIn()
            #expect(try await app.waitFor("message: ").isEmpty == false)
            #expect(Auth.auth().currentUser == nil)
        }
    }

    @MainActor @Test("phone guide's app-delegate hooks: the APNs token and the silent push prove the app to an enforcing server")
    func phoneGuideAppDelegateHooks() async throws {
        try await withFlint { server in
            try await server.enablePhone()
            try await server.patchConfig(
                ["signIn": ["phoneNumber": ["appVerification": "ENFORCE"]]], updateMask: "signIn.phoneNumber.appVerification")
            FlintApp.configure(
                options: FlintOptions(
                    apiKey: "seed-\(UUID().uuidString.prefix(8))", projectID: "demo-flint", googleAppID: "1:123456789:ios:abc123",
                    bundleID: "com.example.app"))
            Auth.auth().useEmulator(withHost: "127.0.0.1", port: server.port)
            Auth.auth().settings?.isAppVerificationDisabledForTesting = false  // a real app: prove it
            let app = AppStandIn()
            let guide = PhoneSignInGuide(app: app, phoneNumber: "+14155552671")
            let application = UIApplication()
            // A device token as APNs gives it: 32 bytes.
            guide.application(application, didRegisterForRemoteNotificationsWithDeviceToken: Data((0..<32).map { UInt8($0 * 7 & 0xFF) }))

            // Not Firebase's: the app handles these itself.
            var unrelated: UIBackgroundFetchResult?
            guide.application(application, didReceiveRemoteNotification: ["aps": ["alert": "hi"]]) { unrelated = $0 }
            #expect(unrelated == .newData)
            #expect(!guide.application(application, open: URL(string: "myapp://somewhere/else")!, options: [:]))
            guide.scene(UIScene(), openURLContexts: [UIOpenURLContext(url: URL(string: "myapp://other")!)])

            guide.sendCode()
            // iOS delivers the silent push Flint sent (dev mode records it) to the app delegate, which hands it to Auth.
            // The pushes are the flint child's: read again every 50 ms, as another process tells this one nothing.
            var handled: UIBackgroundFetchResult?
            for _ in 0..<100 where handled != .noData {
                for push in try await server.pushes() {
                    guard let payload = push["payload"] as? [String: Any] else { continue }
                    var userInfo: [AnyHashable: Any] = [:]
                    for (key, value) in payload { userInfo[key] = value }
                    guide.application(application, didReceiveRemoteNotification: userInfo) { handled = $0 }
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(handled == .noData)
            _ = try await app.waitFor("code sent")
            guide.verificationCode = try await server.verificationCode(for: "+14155552671")
            guide.signIn()
            _ = try await app.waitFor("signed in ")
            #expect(Auth.auth().currentUser?.phoneNumber == "+14155552671")
            guide.signOut()
        }
    }

    @MainActor @Test("phone guide: an MFA user's number is refused as a first factor, and the guide shows why")
    func phoneGuideMultiFactorUser() async throws {
        try await withFlint { server in
            try await server.enableMFA()
            try await server.enablePhone(testNumbers: ["+16505550104": "123456"])
            configureDefaultApp(for: server)
            // An email user who linked +16505550104 as a sign-in number, then enrolled it as a second factor.
            let email = uniqueEmail()
            let user = try await Auth.auth().createUser(withEmail: email, password: "correct horse").user
            try await server.markEmailVerified(uid: user.uid)
            let provider = PhoneAuthProvider.provider()
            let linkID = try await provider.verifyPhoneNumber("+16505550104", uiDelegate: nil)
            try await user.link(with: provider.credential(withVerificationID: linkID, verificationCode: "123456"))
            // (A session whose last sign-in was by phone cannot enrol a factor: sign in with the password again.)
            let signedIn = try await Auth.auth().signIn(withEmail: email, password: "correct horse").user
            let session = try await signedIn.multiFactor.session()
            let enrolment = try await provider.verifyPhoneNumber("+16505550104", uiDelegate: nil, multiFactorSession: session)
            try await signedIn.multiFactor.enroll(
                with: PhoneMultiFactorGenerator.assertion(with: provider.credential(withVerificationID: enrolment, verificationCode: "123456")),
                displayName: "Work")
            try Auth.auth().signOut()

            // Firebase refuses a phone first factor for an MFA user (UNSUPPORTED_FIRST_FACTOR), Flint too, so the
            // guide's multi-factor branch after `signIn(with:)` is not reached: its alert shows the reason instead.
            let app = AppStandIn()
            let guide = PhoneSignInGuide(app: app, phoneNumber: "+16505550104")
            guide.sendCode()
            let message = try await app.waitFor("message: ")
            #expect(message.contains("first factor"))
            #expect(!app.recorded.contains("code sent"))
        }
    }

    @MainActor @Test("phone guide's integration-testing snippet: a fictional number with app verification off")
    func phoneGuideIntegrationSnippet() async throws {
        try await withFlint { server in
            try await server.enablePhone(testNumbers: ["+16505554567": "123456"])
            configureDefaultApp(for: server)
            let app = AppStandIn()
            let guide = PhoneSignInGuide(app: app, phoneNumber: "+16505554567")
            guide.integrationTest()
            let event = try await app.waitFor("test number signed in ")
            #expect(guide._user?.phoneNumber == "+16505554567")
            #expect(event.hasSuffix(guide._user?.uid ?? "-"))
            #expect(try await server.outbox().isEmpty)  // fictional numbers get no SMS
            guide.signOut()
        }
    }

    @MainActor @Test("multi-factor guide (seed 002): enrol step by step, sign in through the resolver, enrol a second factor")
    func multiFactorGuide() async throws {
        try await withFlint { server in
            try await server.enableMFA()
            try await server.enablePhone(testNumbers: ["+16505550101": "123456", "+16505550102": "654321"])
            configureDefaultApp(for: server)
            let email = uniqueEmail()
            let created = try await Auth.auth().createUser(withEmail: email, password: "correct horse")
            try await server.markEmailVerified(uid: created.user.uid)
            let authResult = try await Auth.auth().signIn(withEmail: email, password: "correct horse")

            let app = AppStandIn()
            let guide = MultiFactorGuide(app: app, email: email, password: "correct horse", phoneNumber: "+16505550101", code: "123456")
            guide.enrollStepByStep(authResult: authResult)
            _ = try await app.waitFor("enrolled")
            #expect(Auth.auth().currentUser?.multiFactor.enrolledFactors.count == 1)

            try Auth.auth().signOut()
            guide.signInFirstFactor()
            _ = try await app.waitFor("phone factor selected")
            #expect(Auth.auth().currentUser == nil)

            guide.signInCompleteExample()
            let signedIn = try await app.waitFor("signed in ")
            #expect(signedIn == "signed in \(authResult.user.uid)")
            #expect(try await Auth.auth().currentUser?.getIDTokenResult().signInSecondFactor == "phone")

            let second = AppStandIn()
            let secondGuide = MultiFactorGuide(
                app: second, email: email, password: "correct horse", phoneNumber: "+16505550102", code: "654321")
            secondGuide.enrollCompleteExample()
            _ = try await second.waitFor("enrolled")
            #expect(Auth.auth().currentUser?.multiFactor.enrolledFactors.count == 2)
            try Auth.auth().signOut()
        }
    }

    @MainActor @Test("email-link guide (seed 004): send, sign in, sign-in methods, re-authenticate, link to a phone user")
    func emailLinkGuide() async throws {
        try await withFlint { server in
            try await server.patchConfig(["authorizedDomains": ["localhost", "www.example.com"]], updateMask: "authorizedDomains")
            try await server.enablePhone(testNumbers: ["+16505550103": "123456"])
            configureDefaultApp(for: server)
            let app = AppStandIn()
            let guide = EmailLinkGuide(app: app)
            let email = uniqueEmail()
            guide.sendLink(email: email)
            _ = try await app.waitFor("message: Check your email for link")
            #expect(UserDefaults.standard.string(forKey: "Email") == email)
            guide.link = try await server.oobLink(for: email)
            guide.completeSignIn(email: email)
            let signedIn = try await app.waitFor("signed in ")
            #expect(signedIn == "signed in \(Auth.auth().currentUser?.uid ?? "-")")
            guide.fetchMethods(email: email)
            #expect(try await app.waitFor("methods ") == "methods emailLink")

            guide.sendLink(email: email)
            _ = try await app.waitFor("message: Check your email for link", count: 2)  // the second link is stored
            guide.link = try await server.oobLink(for: email)
            guide.reauthenticate(email: email)
            _ = try await app.waitFor("reauthenticated")
            guide.signOut()

            // A phone user adds an email with a link.
            let provider = PhoneAuthProvider.provider()
            let verificationID = try await provider.verifyPhoneNumber("+16505550103", uiDelegate: nil)
            let phoneUser = try await Auth.auth().signIn(with: provider.credential(withVerificationID: verificationID, verificationCode: "123456"))
                .user
            let linking = AppStandIn()
            let linkGuide = EmailLinkGuide(app: linking)
            let second = uniqueEmail()
            linkGuide.sendLink(email: second)
            _ = try await linking.waitFor("message: Check your email for link")
            linkGuide.link = try await server.oobLink(for: second)
            linkGuide.linkCredential(email: second)
            _ = try await linking.waitFor("linked")
            #expect(phoneUser.email == second)
            #expect(Set(phoneUser.providerData.map(\.providerID)) == ["phone", "password"])
            linkGuide.signOut()
        }
    }
}
