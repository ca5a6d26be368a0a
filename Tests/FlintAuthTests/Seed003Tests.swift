import FlintAuth
import Foundation
import Testing

/// The Swift of the phone sign-in guide (seed 003), with `import FirebaseAuth` replaced by `import FlintAuth` and
/// the UIKit view controller replaced by a plain type. The guide's multi-factor branch of `signIn(with:)` is left
/// out: FlintAuth has no multi-factor API yet. It only has to compile against the SDK's API.
final class PhoneSignInGuide: Sendable {
    let phoneNumber: String
    let verificationCode: String

    init(phoneNumber: String, verificationCode: String) {
        self.phoneNumber = phoneNumber
        self.verificationCode = verificationCode
    }

    func showMessagePrompt(_ message: String) {}

    func sendCode() {
        PhoneAuthProvider.provider()
            .verifyPhoneNumber(phoneNumber, uiDelegate: nil) { verificationID, error in
                if let error = error {
                    self.showMessagePrompt(error.localizedDescription)
                    return
                }
                // Sign in using the verificationID and the code sent to the user
                // ...
            }
    }

    func changeLanguage() {
        // Change language code to french.
        Auth.auth().languageCode = "fr"
    }

    func saveVerificationID(_ verificationID: String) {
        UserDefaults.standard.set(verificationID, forKey: "authVerificationID")
    }

    func signIn() {
        let verificationID = UserDefaults.standard.string(forKey: "authVerificationID") ?? ""
        let credential = PhoneAuthProvider.provider().credential(
            withVerificationID: verificationID,
            verificationCode: verificationCode
        )
        Auth.auth().signIn(with: credential) { authResult, error in
            if let error = error {
                self.showMessagePrompt(error.localizedDescription)
                return
            }
            // User is signed in
            // ...
        }
    }
}

@Suite("Seed 003")
struct Seed003Tests {
    @Test("the phone sign-in guide's Swift compiles against FlintAuth")
    func guideCompiles() {
        let guide = PhoneSignInGuide(phoneNumber: "+16505550101", verificationCode: "123456")
        #expect(guide.phoneNumber == "+16505550101")
    }
}
