import FlintAuth
import Foundation
import Testing

/// The Swift of the email-link guide (seed 004), with `import FirebaseAuth` replaced by `import FlintAuth` and the
/// UIKit view controller replaced by a plain type. It only has to compile against the SDK's API.
final class EmailLinkGuide: Sendable {
    let link: String

    init(link: String) { self.link = link }

    func showMessagePrompt(_ message: String) {}

    func sendLink(email: String) {
        let actionCodeSettings = ActionCodeSettings()
        actionCodeSettings.url = URL(string: "https://www.example.com")
        // The sign-in operation has to always be completed in the app.
        actionCodeSettings.handleCodeInApp = true
        actionCodeSettings.setIOSBundleID(Bundle.main.bundleIdentifier ?? "com.example.ios")
        actionCodeSettings.setAndroidPackageName(
            "com.example.android",
            installIfNotAvailable: false, minimumVersion: "12")

        Auth.auth().sendSignInLink(
            toEmail: email,
            actionCodeSettings: actionCodeSettings
        ) { error in
            // ...
            if let error = error {
                self.showMessagePrompt(error.localizedDescription)
                return
            }
            // The link was successfully sent. Inform the user.
            // Save the email locally so you don't need to ask the user for it again
            // if they open the link on the same device.
            UserDefaults.standard.set(email, forKey: "Email")
            self.showMessagePrompt("Check your email for link")
            // ...
        }
    }

    func completeSignIn(email: String) {
        if Auth.auth().isSignIn(withEmailLink: link) {
            Auth.auth().signIn(withEmail: email, link: self.link) { user, error in
                // ...
            }
        }
    }

    func linkCredential(email: String) {
        // The guide writes `EmailAuthCredential.credential(withEmail:link:)`; the SDK (FirebaseAuth's too) has it on
        // `EmailAuthProvider`.
        let credential = EmailAuthProvider.credential(
            withEmail: email,
            link: link)
        Auth.auth().currentUser?.link(with: credential) { authData, error in
            if error != nil {
                // And error occurred during linking.
                return
            }
            // The provider was successfully linked.
            // The phone user can now sign in with their phone number or email.
        }
    }

    func reauthenticate(email: String) {
        let credential = EmailAuthProvider.credential(
            withEmail: email,
            link: link)
        Auth.auth().currentUser?.reauthenticate(with: credential) { authData, error in
            if error != nil {
                // And error occurred during re-authentication.
                return
            }
            // The user was successfully re-authenticated.
        }
    }

    func fetchMethods(email: String) {
        // After asking the user for their email.
        Auth.auth().fetchSignInMethods(forEmail: email) { signInMethods, error in
            if error != nil {
                // Handle error case.
            }
            if !(signInMethods ?? []).contains(EmailPasswordAuthSignInMethod) {
                // User can sign in with email/password.
            }
            if !(signInMethods ?? []).contains(EmailLinkAuthSignInMethod) {
                // User can sign in with email/link.
            }
        }
    }

    func signOut() {
        let firebaseAuth = Auth.auth()
        do {
            try firebaseAuth.signOut()
        } catch let signOutError as NSError {
            print("Error signing out: %@", signOutError)
        }
    }
}

@Suite("Seed 004")
struct Seed004Tests {
    @Test("the email-link guide's Swift compiles against FlintAuth")
    func guideCompiles() {
        #expect(EmailLinkGuide(link: "https://example.com/?mode=signIn&oobCode=x").link.isEmpty == false)
    }
}
