import FlintAuth
import Foundation

/// The Swift of the email-link guide (seed 004), with `import FirebaseAuth` replaced by `import FlintAuth` and the
/// view controller replaced by a ``GuideViewController``. `link` is the link the app received. Other adaptations
/// are marked `Adapted:`.
@MainActor
final class EmailLinkGuide: GuideViewController {
    let app: AppStandIn
    var link = ""

    init(app: AppStandIn) { self.app = app }

    func sendLink(email: String) {
        let actionCodeSettings = ActionCodeSettings()
        actionCodeSettings.url = URL(string: "https://www.example.com")
        // The sign-in operation has to always be completed in the app.
        actionCodeSettings.handleCodeInApp = true
        // Adapted: a test runner has no bundle identifier, where the guide force-unwraps the app's.
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
                // Adapted: tell the test.
                self.app.record(error == nil ? "signed in \(user?.user.uid ?? "")" : "error: \(error!.localizedDescription)")
            }
        }
    }

    func linkCredential(email: String) {
        let credential = EmailAuthCredential.credential(
            withEmail: email,
            link: link)
        Auth.auth().currentUser?.link(with: credential) { authData, error in
            // Adapted: the guide writes `if (error)`, which Swift does not accept for an optional.
            if error != nil {
                // And error occurred during linking.
                self.app.record("error: \(error!.localizedDescription)")  // Adapted: tell the test.
                return
            }
            // The provider was successfully linked.
            // The phone user can now sign in with their phone number or email.
            self.app.record("linked")  // Adapted: tell the test.
        }
    }

    func reauthenticate(email: String) {
        let credential = EmailAuthProvider.credential(
            withEmail: email,
            link: link)
        Auth.auth().currentUser?.reauthenticate(with: credential) { authData, error in
            if error != nil {
                // And error occurred during re-authentication.
                self.app.record("error: \(error!.localizedDescription)")  // Adapted: tell the test.
                return
            }
            // The user was successfully re-authenticated.
            self.app.record("reauthenticated")  // Adapted: tell the test.
        }
    }

    func fetchMethods(email: String) {
        // After asking the user for their email.
        Auth.auth().fetchSignInMethods(forEmail: email) { signInMethods, error in
            // This returns the same array as fetchProviders(forEmail:completion:) but for email
            // provider identified by 'password' string, signInMethods would contain 2
            // different strings:
            // 'emailLink' if the user previously signed in with an email/link
            // 'password' if the user has a password.
            // A user could have both.
            if error != nil {
                // Handle error case.
            }
            // Adapted: `signInMethods` is optional.
            if !(signInMethods ?? []).contains(EmailPasswordAuthSignInMethod) {
                // User can sign in with email/password.
            }
            if !(signInMethods ?? []).contains(EmailLinkAuthSignInMethod) {
                // User can sign in with email/link.
            }
            self.app.record("methods \((signInMethods ?? []).joined(separator: ","))")  // Adapted: tell the test.
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
