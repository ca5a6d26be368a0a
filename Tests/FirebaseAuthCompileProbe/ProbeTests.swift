import FirebaseAuth
import FirebaseCore
import Foundation
import Testing

@Suite("FirebaseAuth names, offline")
struct ProbeTests {
    @Test("FirebaseOptions made as Firebase's multiple-projects guide makes them configure an app and its Auth")
    func optionsPropertyByProperty() throws {
        let options = FirebaseOptions(googleAppID: "1:27992087142:ios:2a4732a34787067a", gcmSenderID: "27992087142")
        options.apiKey = "probe-key"
        options.projectID = "demo-probe"
        options.clientID = "123-abc.apps.googleusercontent.com"
        let name = "probe-\(UUID().uuidString.prefix(8))"
        FirebaseApp.configure(name: name, options: options)
        options.apiKey = "changed-after-configure"
        let app = try #require(FirebaseApp.app(name: name))
        #expect(app.options.apiKey == "probe-key")
        #expect(app.options.clientID == "123-abc.apps.googleusercontent.com")
        #expect(app.options.gcmSenderID == "27992087142")
        let auth = Auth.auth(app: app)
        #expect(auth.app === app)
        #expect(auth.settings?.isAppVerificationDisabledForTesting == false)
        auth.settings = nil
        #expect(auth.settings == nil)
        auth.settings = AuthSettings()
        auth.settings?.isAppVerificationDisabledForTesting = true
        #expect(auth.settings?.isAppVerificationDisabledForTesting == true)
    }

    @Test("ActionCodeURL reads a link's parts")
    func actionCodeURL() throws {
        let url = try #require(
            ActionCodeURL(
                link: "https://x.example/__/auth/action?apiKey=k&mode=resetPassword&oobCode=abc&continueUrl=https%3A%2F%2Fapp.example%2Fdone&lang=fr")
        )
        #expect(url.operation == .passwordReset)
        #expect(url.code == "abc")
        #expect(url.apiKey == "k")
        #expect(url.continueURL?.absoluteString == "https://app.example/done")
        #expect(url.languageCode == "fr")
        #expect(ActionCodeURL(link: "https://x.example/") == nil)
    }

    @Test("The constants hold FirebaseAuth's values")
    func constants() {
        #expect(AuthErrorDomain == "FIRAuthErrorDomain")
        #expect(AuthErrorUserInfoNameKey == "FIRAuthErrorUserInfoNameKey")
        #expect(EmailAuthProviderID == "password")
        #expect(PhoneAuthProviderID == "phone")
        #expect(GoogleAuthProviderID == "google.com")
        #expect(AuthProviderID.gameCenter.rawValue == "gc.apple.com")
        #expect(FacebookAuthProvider.id == "facebook.com" && GitHubAuthProvider.id == "github.com" && TwitterAuthProvider.id == "twitter.com")
        #expect(GameCenterAuthProvider.id == "gc.apple.com" && OAuthProvider.id == "OAuth")
        #expect(Notification.Name.AuthStateDidChange.rawValue == "FIRAuthStateDidChangeNotification")
        #expect(AuthErrorCode.rejectedCredential.rawValue == 17075)
        #expect(AuthErrorCode.recaptchaActionCreationFailed.rawValue == 17210)
    }
}
